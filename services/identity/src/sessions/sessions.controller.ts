import {
  identityContracts,
  isRefusal,
  type ParsedRequestOf,
  type ResponseOf,
  type Session,
  type SignInRefusal,
} from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller, Inject } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import {
  identityOf,
  KeycloakClient,
  KeycloakError,
  type TokenSet,
} from '../keycloak/keycloak.client.js';
import { toUser, UsersRepository } from '../users/users.repository.js';

type Outcome = Session | SignInRefusal;

/** Keycloak's refusals a person can act on, as the reasons of the sign-in contract. */
function refusalOf(
  error: unknown,
  during: 'sign-in' | 'sign-up' | 'refresh' | 'provider',
): SignInRefusal {
  if (!(error instanceof KeycloakError)) throw error;
  const message = error.description;
  if (during === 'sign-up') {
    if (error.status === 409) return { refused: 'email_taken', message };
    if (error.status === 400 && /password/i.test(`${error.error} ${message}`)) {
      return { refused: 'password_policy', message };
    }
  }
  if (during === 'refresh' && error.status === 400 && error.error === 'invalid_grant') {
    return { refused: 'session_expired', message };
  }
  if (during === 'provider' && error.status === 400 && error.error === 'invalid_grant') {
    return { refused: 'provider_failed', message };
  }
  if (during === 'sign-in' && error.error === 'invalid_grant') {
    return /disabled|locked/i.test(message)
      ? { refused: 'account_locked', message }
      : { refused: 'invalid_credentials', message };
  }
  throw error;
}

/**
 * Sign-in, sign-up, refresh and sign-out through the realm. Every session handed out has been
 * recorded in `users` first (the sign-in bookkeeping).
 */
@Controller()
export class SessionsController {
  constructor(
    @Inject(KeycloakClient) private readonly keycloak: KeycloakClient,
    private readonly users: UsersRepository,
  ) {}

  private async session(tokens: TokenSet): Promise<Session> {
    if (!tokens.refresh_token) throw new Error('The realm issued no refresh token');
    const user = await this.users.recordSignIn(identityOf(tokens));
    return {
      accessToken: tokens.access_token,
      expiresIn: tokens.expires_in,
      refreshToken: tokens.refresh_token,
      refreshExpiresIn: tokens.refresh_expires_in ?? 0,
      user: toUser(user),
    };
  }

  @HandleRequest(identityContracts.signIn)
  async signIn(request: ParsedRequestOf<typeof identityContracts.signIn>): Promise<Outcome> {
    let tokens: TokenSet;
    try {
      tokens = await this.keycloak.passwordGrant(request.email, request.password);
    } catch (error) {
      return refusalOf(error, 'sign-in');
    }
    return this.session(tokens);
  }

  /**
   * Creates the user in the realm (admin API), then signs in. A sign-up of a taken address with
   * that account's password signs it in: it is a retry whose first answer was lost (the realm
   * created the user after the caller stopped waiting). Any other password is told the address
   * is taken.
   */
  @HandleRequest(identityContracts.signUp)
  async signUp(request: ParsedRequestOf<typeof identityContracts.signUp>): Promise<Outcome> {
    try {
      await this.keycloak.createUser(request.email, request.password);
    } catch (error) {
      const refusal = refusalOf(error, 'sign-up');
      if (refusal.refused !== 'email_taken') return refusal;
      // (A wrong password here counts as a failed sign-in of that account, as it would there.)
      const retried = await this.signIn(request).catch(() => refusal);
      return isRefusal(retried) ? refusal : retried;
    }
    return this.signIn(request);
  }

  @HandleRequest(identityContracts.refresh)
  async refresh(request: ParsedRequestOf<typeof identityContracts.refresh>): Promise<Outcome> {
    let tokens: TokenSet;
    try {
      tokens = await this.keycloak.refresh(request.refreshToken);
    } catch (error) {
      return refusalOf(error, 'refresh');
    }
    return this.session(tokens);
  }

  @HandleRequest(identityContracts.signOut)
  async signOut(
    request: ParsedRequestOf<typeof identityContracts.signOut>,
  ): Promise<ResponseOf<typeof identityContracts.signOut>> {
    try {
      await this.keycloak.logout(request.refreshToken);
      return { signedOut: true };
    } catch (error) {
      // An unknown or already revoked session is signed out already.
      if (error instanceof KeycloakError && error.status === 400) return { signedOut: false };
      throw error;
    }
  }

  /** Starts an authorization-code flow with PKCE through the realm, hinting the provider. */
  @HandleRequest(identityContracts.startProvider)
  startProvider(
    request: ParsedRequestOf<typeof identityContracts.startProvider>,
  ): ResponseOf<typeof identityContracts.startProvider> {
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

  @HandleRequest(identityContracts.completeProvider)
  async completeProvider(
    request: ParsedRequestOf<typeof identityContracts.completeProvider>,
  ): Promise<Outcome> {
    let tokens: TokenSet;
    try {
      tokens = await this.keycloak.codeGrant(
        request.code,
        request.codeVerifier,
        request.redirectUri,
      );
    } catch (error) {
      return refusalOf(error, 'provider');
    }
    return this.session(tokens);
  }

  @HandleRequest(identityContracts.getUser)
  async getUser(
    request: ParsedRequestOf<typeof identityContracts.getUser>,
  ): Promise<ResponseOf<typeof identityContracts.getUser>> {
    const document = await this.users.find(request.id);
    return { user: document ? toUser(document) : null };
  }
}
