import type { FastifyReply, FastifyRequest } from 'fastify';

/** The refresh token's cookie: httpOnly, SameSite=Strict, sent to /graphql only. */
export const SESSION_COOKIE = 'debate_session';
/** The state and PKCE verifier of a provider sign-in in progress (ten minutes at most). */
export const PROVIDER_COOKIE = 'debate_provider';

/** One HTTP exchange: the request says how it came, the reply carries the cookie. */
export interface CookieExchange {
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
}

/**
 * The gateway's cookies, and whether they are `Secure`. Browsers keep a Secure cookie only from
 * an HTTPS page or a loopback one: a Secure session cookie sent to `http://192.168.1.20:3300`
 * (`npm start` tried from a phone on the same network) is dropped, and a reload signs the user
 * out. So the flag follows the scheme the browser used: `request.protocol`, which is HTTPS when
 * the request came over TLS, or through a proxy TRUST_PROXY names that says so in
 * X-Forwarded-Proto (anyone else's header is ignored). In production (NODE_ENV=production) the
 * cookies are Secure whatever the request says, so that a proxy set up wrong can never get a
 * session token sent in the clear.
 */
export class SessionCookies {
  constructor(private readonly alwaysSecure: boolean) {}

  /** Whether a cookie set in answer to `request` is Secure. */
  secureFor(request: FastifyRequest): boolean {
    return this.alwaysSecure || request.protocol === 'https';
  }

  private base(request: FastifyRequest) {
    return { httpOnly: true, secure: this.secureFor(request), path: '/graphql' } as const;
  }

  setSession({ req, reply }: CookieExchange, refreshToken: string, maxAgeSeconds: number): void {
    reply.setCookie(SESSION_COOKIE, refreshToken, {
      ...this.base(req),
      sameSite: 'strict',
      // 0 means "as long as the session lasts" in Keycloak's answer: keep it for the browser session.
      ...(maxAgeSeconds > 0 ? { maxAge: maxAgeSeconds } : {}),
    });
  }

  // Cleared with the flag it was set with: a browser ignores a Secure Set-Cookie from plain HTTP.
  clearSession({ req, reply }: CookieExchange): void {
    reply.clearCookie(SESSION_COOKIE, { ...this.base(req), sameSite: 'strict' });
  }

  setProvider({ req, reply }: CookieExchange, value: string): void {
    // Lax: the browser comes back to the web app from the provider, a cross-site navigation.
    reply.setCookie(PROVIDER_COOKIE, value, { ...this.base(req), sameSite: 'lax', maxAge: 600 });
  }

  clearProvider({ req, reply }: CookieExchange): void {
    reply.clearCookie(PROVIDER_COOKIE, { ...this.base(req), sameSite: 'lax' });
  }
}

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.cookies[name];
  return value === undefined || value === '' ? undefined : value;
}
