import {
  type identityContracts,
  isRefusal,
  type ParsedRequestOf,
  type ResponseOf,
  type Session,
  SignInProvider,
  type SignInRefusal,
} from '@debate/contracts';
import { PinoLoggerService } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import {
  identityOf,
  KeycloakClient,
  KeycloakError,
  type TokenSet,
} from '../keycloak/keycloak.client.js';
import { toUser } from '../users/users.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { refusalOf, type RefusedDuring } from './keycloak-refusals.js';

type Contracts = typeof identityContracts;
type Outcome = Session | SignInRefusal;

/** How long the realm's list of enabled providers is reused. */
const PROVIDERS_TTL_MS = 60_000;
/** How long a failed reading of it is answered before the realm is asked again. */
const FAILED_PROVIDERS_TTL_MS = 10_000;

/** Whether the deployment asks new e-mail accounts to verify their address (it has mail). */
export const EMAIL_VERIFICATION = Symbol('EMAIL_VERIFICATION');
export type EmailVerification = 'off' | 'required';

/**
 * Sign-in, sign-up, refresh and sign-out through the realm. Every session handed out has been
 * recorded in `users` first (the sign-in bookkeeping).
 */
@Injectable()
export class SessionsService {
  private readonly verificationRequired: boolean;
  private enabledProviders: { expiresAt: number; providers: Promise<SignInProvider[]> } | undefined;

  constructor(
    @Inject(KeycloakClient) private readonly keycloak: KeycloakClient,
    private readonly users: UsersRepository,
    @Inject(EMAIL_VERIFICATION) emailVerification: EmailVerification,
    private readonly logger: PinoLoggerService,
  ) {
    this.verificationRequired = emailVerification === 'required';
  }

  /** The session of the tokens the realm handed out, or its refusal to hand them out. */
  private async sessionOf(
    tokens: () => Promise<TokenSet>,
    during: RefusedDuring,
  ): Promise<Outcome> {
    let issued: TokenSet;
    try {
      issued = await tokens();
    } catch (error) {
      return refusalOf(error, during);
    }
    if (!issued.refresh_token) throw new Error('The realm issued no refresh token');
    const user = await this.users.recordSignIn(identityOf(issued));
    return {
      accessToken: issued.access_token,
      expiresIn: issued.expires_in,
      refreshToken: issued.refresh_token,
      refreshExpiresIn: issued.refresh_expires_in ?? 0,
      user: toUser(user, this.verificationRequired),
    };
  }

  signIn(request: ParsedRequestOf<Contracts['signIn']>): Promise<Outcome> {
    return this.sessionOf(
      () => this.keycloak.passwordGrant(request.email, request.password),
      'sign-in',
    );
  }

  /**
   * Creates the user in the realm (admin API), has the realm mail the link that verifies the
   * address when the deployment asks for it, then signs in. A sign-up of a taken address with
   * that account's password signs it in: it is a retry whose first answer was lost (the realm
   * created the user after the caller stopped waiting). Any other password is told the address
   * is taken.
   */
  async signUp(request: ParsedRequestOf<Contracts['signUp']>): Promise<Outcome> {
    try {
      const userId = await this.keycloak.createUser(request.email, request.password);
      if (this.verificationRequired && request.verifyRedirectUri) {
        // Not waited for: a slow mail server must not hold the sign-up up, and a mail that does
        // not go out leaves the account as it is ('Send the mail again' tries again).
        void this.mailVerificationLink(userId, request.verifyRedirectUri);
      }
    } catch (error) {
      const refusal = refusalOf(error, 'sign-up');
      if (refusal.refused !== 'email_taken') return refusal;
      // (A wrong password here counts as a failed sign-in of that account, as it would there.)
      const retried = await this.signIn(request).catch(() => refusal);
      return isRefusal(retried) ? refusal : retried;
    }
    return this.signIn(request);
  }

  refresh(request: ParsedRequestOf<Contracts['refresh']>): Promise<Outcome> {
    return this.sessionOf(() => this.keycloak.refresh(request.refreshToken), 'refresh');
  }

  async signOut(
    request: ParsedRequestOf<Contracts['signOut']>,
  ): Promise<ResponseOf<Contracts['signOut']>> {
    try {
      await this.keycloak.logout(request.refreshToken);
      return { signedOut: true };
    } catch (error) {
      // An unknown or already revoked session is signed out already.
      if (error instanceof KeycloakError && error.status === 400) return { signedOut: false };
      throw error;
    }
  }

  /**
   * The realm's enabled providers among Google and GitHub, read at most once a minute (the
   * sign-in page asks on every visit; an operator enables one rarely). Visits while it is read
   * wait for the same reading, and a failed reading is answered for a while too, so that a
   * realm that refuses (or is down) is not asked on every visit.
   */
  async providers(): Promise<ResponseOf<Contracts['providers']>> {
    const now = Date.now();
    if (!this.enabledProviders || this.enabledProviders.expiresAt <= now) {
      const reading = this.keycloak
        .enabledProviders()
        .then((aliases) => SignInProvider.options.filter((provider) => aliases.includes(provider)));
      const entry = { expiresAt: now + PROVIDERS_TTL_MS, providers: reading };
      this.enabledProviders = entry;
      // A failure is kept for a shorter while than an answer.
      reading.catch(() => {
        entry.expiresAt = now + FAILED_PROVIDERS_TTL_MS;
      });
    }
    return { providers: await this.enabledProviders.providers };
  }

  /** Starts an authorization-code flow with PKCE through the realm, hinting the provider. */
  startProvider(
    request: ParsedRequestOf<Contracts['startProvider']>,
  ): ResponseOf<Contracts['startProvider']> {
    const state = randomBytes(24).toString('base64url');
    const codeVerifier = randomBytes(32).toString('base64url');
    const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
    const url = this.keycloak.authorizationUrl({
      provider: request.provider,
      redirectUri: request.redirectUri,
      state,
      codeChallenge,
    });
    return { url, state, codeVerifier };
  }

  completeProvider(request: ParsedRequestOf<Contracts['completeProvider']>): Promise<Outcome> {
    return this.sessionOf(
      () => this.keycloak.codeGrant(request.code, request.codeVerifier, request.redirectUri),
      'provider',
    );
  }

  async getUser(
    request: ParsedRequestOf<Contracts['getUser']>,
  ): Promise<ResponseOf<Contracts['getUser']>> {
    const document = await this.users.find(request.id);
    return { user: document ? toUser(document, this.verificationRequired) : null };
  }

  /**
   * Asks the realm (a token's `email_verified` may predate the link being followed). Without
   * verification nothing is asked of anyone, and the realm is not asked.
   */
  async verificationStatus(
    request: ParsedRequestOf<Contracts['verificationStatus']>,
  ): Promise<ResponseOf<Contracts['verificationStatus']>> {
    if (!this.verificationRequired) {
      const document = await this.users.find(request.userId);
      return {
        required: false,
        emailVerified: document?.emailVerified === true,
        mustVerifyEmail: false,
      };
    }
    const emailVerified = (await this.keycloak.emailVerified(request.userId)) === true;
    await this.users.recordEmailVerified(request.userId, emailVerified);
    return { required: true, emailVerified, mustVerifyEmail: !emailVerified };
  }

  async sendVerification(
    request: ParsedRequestOf<Contracts['sendVerification']>,
  ): Promise<ResponseOf<Contracts['sendVerification']>> {
    if (!this.verificationRequired) return { sent: false, reason: 'not_required' };
    if (await this.keycloak.emailVerified(request.userId)) {
      await this.users.recordEmailVerified(request.userId, true);
      return { sent: false, reason: 'already_verified' };
    }
    return (await this.mailVerificationLink(request.userId, request.redirectUri))
      ? { sent: true }
      : { sent: false, reason: 'mail_failed' };
  }

  /**
   * Has the realm mail the verification link; false (and a log line) when it could not: it
   * refused, did not answer in time, or could not be reached.
   */
  private async mailVerificationLink(userId: string, redirectUri: string): Promise<boolean> {
    try {
      await this.keycloak.sendVerifyEmail(userId, redirectUri);
      return true;
    } catch (error) {
      const why =
        error instanceof KeycloakError
          ? `${error.status} ${error.description}`
          : error instanceof Error
            ? error.message
            : String(error);
      this.logger.error(`The realm did not send the verification mail of ${userId}: ${why}`);
      return false;
    }
  }
}
