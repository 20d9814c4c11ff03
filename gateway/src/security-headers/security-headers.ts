import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * What a page of the gateway may load and who may frame it. The web app is its own files (no
 * inline script or style, no other host), so everything is 'self'. `connect-src 'self'` covers
 * the debate's WebSocket at the same host (CSP Level 3: ws: from an http page, wss: from an https
 * one; Chromium since 71, Safari since 16), which the browser tests open under this policy; a
 * scheme source (`ws:`) would allow any host, and the gateway does not know its public host.
 * The app's one form (sign-in) is sent by its script, and the Google and GitHub sign-ins are
 * navigations, not form posts: `form-action 'self'`.
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'connect-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  },
} satisfies HelmetOptions['contentSecurityPolicy'];

const HEADERS: HelmetOptions = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  // frame-ancestors 'none' for the browsers that predate it.
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // No other site's window keeps a handle on ours, nor loads our files as its images or scripts.
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
};

/** A year, on this host and below it; sent only over TLS (browsers ignore it over http). */
const OVER_TLS: HelmetOptions = {
  ...HEADERS,
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
};

/**
 * Security headers on every answer of this Fastify instance and of the plugins registered on it
 * afterwards (the API, the web app, the shared pages, the embedded issuer of `npm start`, whose
 * realm pages set Keycloak's own over them), with HSTS when the request came over TLS
 * (`request.protocol`, which believes X-Forwarded-Proto from a trusted proxy only).
 *
 * helmet's middleware, made once for each of the two cases: @fastify/helmet makes helmet's
 * middleware again for every request, which cost about 25 µs a request more on this machine
 * (docs/operations.md); made once, it only sets its headers.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  const plain = helmet(HEADERS);
  const overTls = helmet(OVER_TLS);
  fastify.addHook('onRequest', (request, reply, done) => {
    const headers = request.protocol === 'https' ? overTls : plain;
    headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
