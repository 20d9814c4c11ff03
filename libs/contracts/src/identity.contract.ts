import { z } from 'zod';
import { defineEvent, defineRequest } from './contract.js';
import { subjects } from './subjects.js';

const email = z.email().max(320);
/** What a sign-in form sends; the realm's password policy judges the password, not this. */
const password = z.string().min(1).max(1024);
const opaqueToken = z.string().min(1).max(8192);

/** A user of the platform, as the identity service keeps it (spec §3 users). */
export const User = z
  .object({
    id: z.string().min(1),
    email,
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    isPro: z.boolean(),
    createdAt: z.iso.datetime(),
    /** Whether the realm knows the address is the user's (a followed link, or a provider's word). */
    // (Defaults: a gateway of this version still reads an identity service of the last one.)
    emailVerified: z.boolean().default(false),
    /**
     * The deployment asks for a verified address before the free debates (it has mail) and this
     * user's is not verified yet: they can browse, vote and star, not start a debate.
     */
    mustVerifyEmail: z.boolean().default(false),
  })
  .strict();
export type User = z.output<typeof User>;

/** The sign-in providers besides e-mail and password. */
export const SignInProvider = z.enum(['google', 'github']);
export type SignInProvider = z.output<typeof SignInProvider>;

/** A signed-in session: the realm's tokens and the user they belong to. */
export const Session = z
  .object({
    accessToken: opaqueToken,
    expiresIn: z.number().int().positive(),
    refreshToken: opaqueToken,
    refreshExpiresIn: z.number().int().nonnegative(),
    user: User,
  })
  .strict();
export type Session = z.output<typeof Session>;

/**
 * Why a sign-in did not happen, for the user to read: the realm's own message (e.g. Keycloak's
 * 'Invalid user credentials' or its password-policy text) and a reason the gateway maps to an
 * error code.
 */
export const SignInRefusal = z
  .object({
    refused: z.enum([
      'invalid_credentials',
      'account_locked',
      'email_taken',
      'password_policy',
      'session_expired',
      'provider_failed',
    ]),
    message: z.string().min(1),
  })
  .strict();
export type SignInRefusal = z.output<typeof SignInRefusal>;

const SessionOrRefusal = z.union([Session, SignInRefusal]);

export const Credentials = z.object({ email, password }).strict();

/** Where the realm sends the browser back after a provider sign-in (the web app's /login). */
const redirectUri = z.url().max(2048);

const userId = z.string().min(1).max(128);

/** Why a verification mail was not sent. */
export const VerificationMailRefusal = z.enum([
  /** The address is verified already. */
  'already_verified',
  /** This deployment has no mail: nothing to verify. */
  'not_required',
  /** The realm could not send it (its SMTP server refused or did not answer). */
  'mail_failed',
]);

export const identityContracts = {
  signIn: defineRequest(subjects.identity.session.signIn, Credentials, SessionOrRefusal),
  signUp: defineRequest(
    subjects.identity.session.signUp,
    Credentials.extend({
      /** Where the verification mail's link leads back to once followed (the web app). */
      verifyRedirectUri: redirectUri.optional(),
    }).strict(),
    SessionOrRefusal,
  ),
  refresh: defineRequest(
    subjects.identity.session.refresh,
    z.object({ refreshToken: opaqueToken }).strict(),
    SessionOrRefusal,
  ),
  signOut: defineRequest(
    subjects.identity.session.signOut,
    z.object({ refreshToken: opaqueToken }).strict(),
    z.object({ signedOut: z.boolean() }).strict(),
  ),
  /** The providers the realm has enabled: the only ones the sign-in page offers. */
  providers: defineRequest(
    subjects.identity.provider.list,
    z.object({}).strict(),
    z.object({ providers: z.array(SignInProvider) }).strict(),
  ),
  startProvider: defineRequest(
    subjects.identity.provider.start,
    z.object({ provider: SignInProvider, redirectUri }).strict(),
    z
      .object({
        /** The realm's authorization URL the browser goes to. */
        url: z.url(),
        /** The PKCE verifier and state the gateway keeps (in a cookie) until the browser returns. */
        state: z.string().min(16).max(256),
        codeVerifier: z.string().min(43).max(128),
      })
      .strict(),
  ),
  completeProvider: defineRequest(
    subjects.identity.provider.complete,
    z
      .object({
        provider: SignInProvider,
        code: z.string().min(1).max(4096),
        codeVerifier: z.string().min(43).max(128),
        redirectUri,
      })
      .strict(),
    SessionOrRefusal,
  ),
  getUser: defineRequest(
    subjects.identity.user.get,
    z.object({ id: userId }).strict(),
    z.object({ user: User.nullable() }).strict(),
  ),
  /** The realm's word on the user's address now (a token's claim may predate the link). */
  verificationStatus: defineRequest(
    subjects.identity.verification.status,
    z.object({ userId }).strict(),
    z
      .object({
        /** The deployment asks for a verified address (EMAIL_VERIFICATION=required). */
        required: z.boolean(),
        emailVerified: z.boolean(),
        mustVerifyEmail: z.boolean(),
      })
      .strict(),
  ),
  /** Sends the verification mail (again). */
  sendVerification: defineRequest(
    subjects.identity.verification.send,
    z.object({ userId, redirectUri }).strict(),
    z.union([
      z.object({ sent: z.literal(true) }).strict(),
      z.object({ sent: z.literal(false), reason: VerificationMailRefusal }).strict(),
    ]),
  ),
} as const;

/** Published once per user, on the first sign-in, so other services can set the user up. */
export const userCreatedEvent = defineEvent(
  subjects.identity.user.created,
  z
    .object({
      userId: z.string().min(1),
      email,
      createdAt: z.iso.datetime(),
    })
    .strict(),
);
export type UserCreated = z.output<typeof userCreatedEvent.payload>;

export function isRefusal(value: Session | SignInRefusal): value is SignInRefusal {
  return 'refused' in value;
}
