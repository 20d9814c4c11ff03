import type { LogLevel, TransportConfig } from '@debate/nest';
import type { LoggerService } from '@nestjs/common';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultGatewayLimits, type GatewayLimits } from './config/gateway.config.js';

/** What a gateway is built from: its entry point's environment, or a launcher's choices. */
export interface GatewayOptions {
  readonly transport: TransportConfig;
  /** By default `info`. */
  readonly logLevel?: LogLevel;
  /** How long a request to a service waits for its answer; by default the ServiceClient's. */
  readonly requestTimeoutMs?: number;
  /** The built web app; by default web/dist of this workspace. */
  readonly webDistDir?: string;
  /**
   * The realm whose access tokens @Authenticated() operations accept (Keycloak or the embedded
   * issuer); none: nobody signs in.
   */
  readonly authIssuer?: string | (() => string);
  /** The realm's JWKS URL, when it is not under the issuer URL as the gateway reaches it. */
  readonly authJwksUrl?: string;
  /** NestJS's own messages (process-wide); by default the gateway's logger. */
  readonly frameworkLogger?: LoggerService;
  /**
   * Which proxies' X-Forwarded-* headers to believe (Fastify's trustProxy); none by default. The
   * rate limits count the client address this yields.
   */
  readonly trustProxy?: boolean | string;
  /**
   * The session cookies are Secure whatever the request's scheme (production, NODE_ENV); by
   * default only when the request came over HTTPS, so that sign-in works over plain HTTP.
   */
  readonly alwaysSecureCookies?: boolean;
  /** Rate, operation, body and subscription limits; by default as with no variable set. */
  readonly limits?: GatewayLimits;
}

export const defaultWebDistDir = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** The options with their defaults applied, as the gateway's module and app read them. */
export type ResolvedGatewayOptions = GatewayOptions &
  Required<Pick<GatewayOptions, 'logLevel' | 'webDistDir' | 'limits'>>;

/** Applies the defaults, once, for the module and the app alike. */
export function withDefaults(options: GatewayOptions): ResolvedGatewayOptions {
  return {
    ...options,
    logLevel: options.logLevel ?? 'info',
    webDistDir: options.webDistDir ?? defaultWebDistDir,
    limits: options.limits ?? defaultGatewayLimits(),
  };
}
