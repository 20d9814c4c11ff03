import {
  Credentials,
  identityContracts,
  isRefusal,
  type Session,
  SignInProvider,
  type SignInRefusal,
  type User,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Context, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { Authenticated, Public } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import { accountOfEmail, RateLimit } from '../rate-limit/rate-limit.guard.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { parseInput } from '../errors/graphql-errors.js';
import { AuthSessionModel, MeModel, SignInProviderValue } from './session.models.js';
import {
  type CookieExchange,
  cookieOf,
  PROVIDER_COOKIE,
  SESSION_COOKIE,
  SessionCookies,
} from './session.cookies.js';

/** The HTTP exchange behind a GraphQL operation (graphql.module.ts puts it in the context). */
interface HttpContext {
  req: FastifyRequest;
  /** None over graphql-ws: a subscription has no HTTP reply to set a cookie on. */
  reply?: FastifyReply;
}

function exchangeOf(context: HttpContext): CookieExchange {
  if (!context.reply) throw new Error('No HTTP reply in the GraphQL context (a subscription?)');
  return { req: context.req, reply: context.reply };
}

const REFUSAL_CODES: Record<SignInRefusal['refused'], string> = {
  invalid_credentials: 'UNAUTHENTICATED',
  account_locked: 'ACCOUNT_LOCKED',
  session_expired: 'UNAUTHENTICATED',
  email_taken: 'EMAIL_TAKEN',
  password_policy: 'PASSWORD_POLICY',
  provider_failed: 'PROVIDER_FAILED',
};

function refused(refusal: SignInRefusal): GraphQLError {
  return new GraphQLError(refusal.message, {
    extensions: { code: REFUSAL_CODES[refusal.refused], reason: refusal.refused },
  });
}

/** The words a client reads when the credentials' contract refuses them. */
function credentialsMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  return field === 'email' ? 'Enter a valid e-mail address' : `Invalid ${field}`;
}

function toMe(user: User): MeModel {
  return { ...user };
}

const ProviderCookie = z.object({
  provider: SignInProvider,
  state: z.string().min(16),
  codeVerifier: z.string().min(43),
  redirectUri: z.url(),
});

/** An address of the web app, as the browser reached the gateway (behind TRUST_PROXY too). */
function webUrl(request: FastifyRequest, path: string): string {
  return `${request.protocol}://${request.host}${path}`;
}

/** Where the verification mail's link leads once followed: the engine, to start a debate. */
const VERIFIED_LANDING = '/engine';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Sign-up, sign-in (e-mail or provider), refresh and sign-out. The refresh token never reaches
 * the browser's scripts: it travels in an httpOnly, SameSite=Strict cookie (Secure over HTTPS
 * and in production: SessionCookies); the access token is returned for the app to keep in memory.
 */
@Resolver()
export class SessionResolver {
  constructor(
    private readonly services: ServiceClient,
    private readonly limiter: RateLimiter,
    private readonly cookies: SessionCookies,
  ) {}

  private open(context: HttpContext, outcome: Session | SignInRefusal): AuthSessionModel {
    if (isRefusal(outcome)) throw refused(outcome);
    this.cookies.setSession(exchangeOf(context), outcome.refreshToken, outcome.refreshExpiresIn);
    return {
      accessToken: outcome.accessToken,
      expiresIn: outcome.expiresIn,
      user: toMe(outcome.user),
    };
  }

  private credentials(email: string, password: string) {
    return parseInput(Credentials, { email: email.trim(), password }, credentialsMessage);
  }

  @Public()
  @RateLimit('signUp', { account: 'email-argument' })
  @Mutation(() => AuthSessionModel, { description: 'Creates an account, then signs in.' })
  async signUp(
    @Args('email') email: string,
    @Args('password') password: string,
    @Context() context: HttpContext,
  ): Promise<AuthSessionModel> {
    const outcome = await this.services.request(identityContracts.signUp, {
      ...this.credentials(email, password),
      verifyRedirectUri: webUrl(context.req, VERIFIED_LANDING),
    });
    return this.open(context, outcome);
  }

  @Authenticated()
  @RateLimit('sendVerificationEmail', { account: 'user' })
  @Mutation(() => Boolean, {
    description:
      "Mails the link that verifies the signed-in user's address again; true once the realm sent it.",
  })
  async sendVerificationEmail(
    @CurrentUser() user: AuthenticatedUser,
    @Context() context: HttpContext,
  ): Promise<boolean> {
    const outcome = await this.services.request(identityContracts.sendVerification, {
      userId: user.id,
      redirectUri: webUrl(context.req, VERIFIED_LANDING),
    });
    if (outcome.sent) return true;
    const refusals = {
      already_verified: ['ALREADY_VERIFIED', 'Your e-mail address is verified already.'],
      not_required: ['NOT_REQUIRED', 'This site does not ask for a verified e-mail address.'],
      mail_failed: ['MAIL_FAILED', 'The mail could not be sent. Try again in a few minutes.'],
    } as const;
    const [code, message] = refusals[outcome.reason];
    throw new GraphQLError(message, { extensions: { code } });
  }

  @Public()
  @RateLimit('signIn', { account: 'email-argument' })
  @Mutation(() => AuthSessionModel)
  async signIn(
    @Args('email') email: string,
    @Args('password') password: string,
    @Context() context: HttpContext,
  ): Promise<AuthSessionModel> {
    const outcome = await this.services.request(
      identityContracts.signIn,
      this.credentials(email, password),
    );
    const session = this.open(context, outcome);
    // Only failures count against the account: anyone can type its address.
    await this.limiter.forgive('signIn', accountOfEmail(email));
    return session;
  }

  @Public()
  @Query(() => [SignInProviderValue], {
    description:
      "The providers the realm has enabled, in the sign-in page's order: the only ones to offer.",
  })
  async signInProviders(): Promise<SignInProvider[]> {
    return (await this.services.request(identityContracts.providers, {})).providers;
  }

  @Public()
  @Mutation(() => String, {
    description:
      'Starts a sign-in with Google or GitHub; returns the URL to send the browser to. It comes back to /login with a code and state for completeProviderSignIn.',
  })
  async signInWithProvider(
    @Args('provider', { type: () => SignInProviderValue }) provider: SignInProvider,
    @Context() context: HttpContext,
  ): Promise<string> {
    // Back to the web app's /login, which completes the sign-in; the provider is named there
    // so that a failure can say which one failed.
    const redirectUri = webUrl(context.req, `/login?provider=${provider}`);
    const started = await this.services.request(identityContracts.startProvider, {
      provider,
      redirectUri,
    });
    this.cookies.setProvider(
      exchangeOf(context),
      JSON.stringify({
        provider,
        state: started.state,
        codeVerifier: started.codeVerifier,
        redirectUri,
      }),
    );
    return started.url;
  }

  @Public()
  @Mutation(() => AuthSessionModel)
  async completeProviderSignIn(
    @Args('code') code: string,
    @Args('state') state: string,
    @Context() context: HttpContext,
  ): Promise<AuthSessionModel> {
    const raw = cookieOf(context.req, PROVIDER_COOKIE);
    this.cookies.clearProvider(exchangeOf(context));
    let started: z.output<typeof ProviderCookie> | undefined;
    try {
      started = raw ? ProviderCookie.parse(JSON.parse(raw)) : undefined;
    } catch {
      started = undefined;
    }
    if (!started || !sameSecret(started.state, state)) {
      throw new GraphQLError('The sign-in took too long or was started elsewhere; try again', {
        extensions: { code: 'PROVIDER_FAILED', reason: 'state_mismatch' },
      });
    }
    const outcome = await this.services.request(identityContracts.completeProvider, {
      provider: started.provider,
      // The authorization code the provider sent the browser back with, as the contract takes it.
      code: parseInput(identityContracts.completeProvider.request.shape.code, code, 'Invalid code'),
      codeVerifier: started.codeVerifier,
      redirectUri: started.redirectUri,
    });
    return this.open(context, outcome);
  }

  @Public()
  @RateLimit('refreshSession')
  @Mutation(() => AuthSessionModel, {
    nullable: true,
    description:
      'Renews the session from the refresh cookie (rotating it); null when there is no session.',
  })
  async refreshSession(@Context() context: HttpContext): Promise<AuthSessionModel | null> {
    const refreshToken = cookieOf(context.req, SESSION_COOKIE);
    if (!refreshToken) return null;
    const outcome = await this.services.request(identityContracts.refresh, { refreshToken });
    if (isRefusal(outcome)) {
      this.cookies.clearSession(exchangeOf(context));
      return null;
    }
    return this.open(context, outcome);
  }

  @Public()
  @Mutation(() => Boolean, { description: 'Ends the session and clears its cookie.' })
  async signOut(@Context() context: HttpContext): Promise<boolean> {
    const refreshToken = cookieOf(context.req, SESSION_COOKIE);
    this.cookies.clearSession(exchangeOf(context));
    if (!refreshToken) return true;
    await this.services.request(identityContracts.signOut, { refreshToken });
    return true;
  }

  @Authenticated()
  @Query(() => MeModel, { description: 'The signed-in user.' })
  async me(@CurrentUser() user: AuthenticatedUser): Promise<MeModel> {
    const { user: found } = await this.services.request(identityContracts.getUser, { id: user.id });
    // A token of the realm whose user never signed in through the platform: no document yet.
    if (!found) {
      return {
        id: user.id,
        email: user.email,
        displayName: null,
        photoURL: null,
        isPro: false,
        createdAt: null,
        emailVerified: user.emailVerified,
        mustVerifyEmail: false,
      };
    }
    // The last sign-in's word, or the token's when it is newer (the realm is asked only when a
    // debate is started: `me` is not rate-limited).
    return user.emailVerified
      ? { ...toMe(found), emailVerified: true, mustVerifyEmail: false }
      : toMe(found);
  }
}
