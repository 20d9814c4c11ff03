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

export const identityContracts = {
  signIn: defineRequest(subjects.identity.session.signIn, Credentials, SessionOrRefusal),
  signUp: defineRequest(subjects.identity.session.signUp, Credentials, SessionOrRefusal),
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
    z.object({ id: z.string().min(1).max(128) }).strict(),
    z.object({ user: User.nullable() }).strict(),
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
