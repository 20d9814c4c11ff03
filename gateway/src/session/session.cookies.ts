import type { FastifyReply, FastifyRequest } from 'fastify';

/** The refresh token's cookie: httpOnly, Secure, SameSite=Strict, sent to /graphql only. */
export const SESSION_COOKIE = 'debate_session';
/** The state and PKCE verifier of a provider sign-in in progress (ten minutes at most). */
export const PROVIDER_COOKIE = 'debate_provider';

const base = { httpOnly: true, secure: true, path: '/graphql' } as const;

export function setSessionCookie(reply: FastifyReply, refreshToken: string, maxAgeSeconds: number) {
  reply.setCookie(SESSION_COOKIE, refreshToken, {
    ...base,
    sameSite: 'strict',
    // 0 means "as long as the session lasts" in Keycloak's answer: keep it for the browser session.
    ...(maxAgeSeconds > 0 ? { maxAge: maxAgeSeconds } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { ...base, sameSite: 'strict' });
}

export function setProviderCookie(reply: FastifyReply, value: string) {
  // Lax: the browser comes back to the web app from the provider, a cross-site navigation.
  reply.setCookie(PROVIDER_COOKIE, value, { ...base, sameSite: 'lax', maxAge: 600 });
}

export function clearProviderCookie(reply: FastifyReply) {
  reply.clearCookie(PROVIDER_COOKIE, { ...base, sameSite: 'lax' });
}

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.cookies[name];
  return value === undefined || value === '' ? undefined : value;
}
