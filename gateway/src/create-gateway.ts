import { communityDebateContracts } from '@debate/contracts';
import {
  type LogLevel,
  PinoLoggerService,
  ServiceClient,
  type TransportConfig,
} from '@debate/nest';
import type { LoggerService } from '@nestjs/common';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultGatewayLimits, type GatewayLimits } from './config/gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import type { GraphqlDriverName } from './graphql.module.js';
import { type PageMeta, registerWebApp } from './web/web-app.js';

export interface CreateGatewayOptions {
  readonly transport: TransportConfig;
  readonly logLevel?: LogLevel;
  readonly driver?: GraphqlDriverName;
  readonly requestTimeoutMs?: number;
  readonly healthTimeoutMs?: number;
  /** The built web app; by default web/dist of this workspace. */
  readonly webDistDir?: string;
  /** The realm URL whose access tokens the gateway accepts (Keycloak or the embedded issuer). */
  readonly authIssuer?: string | (() => string);
  /** Where the realm's keys are, when the gateway reaches the realm by another address. */
  readonly authJwksUrl?: string;
  /** NestJS's own messages (process-wide); by default the gateway's logger. */
  readonly frameworkLogger?: LoggerService;
  /**
   * Which proxies' X-Forwarded-* headers to believe (Fastify's trustProxy); none by default. The
   * rate limits count the client address this yields.
   */
  readonly trustProxy?: boolean | string;
  /** Rate, operation, body and subscription limits; by default as with no variable set. */
  readonly limits?: GatewayLimits;
}

export const defaultWebDistDir = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Every answer says how long the gateway took to make it (`Server-Timing: app;dur=<ms>`), so
 * a client or a benchmark can tell server time from the network's.
 */
function addServerTiming(fastify: FastifyInstance): void {
  const started = new WeakMap<object, bigint>();
  fastify.addHook('onRequest', async (request) => {
    started.set(request, process.hrtime.bigint());
  });
  fastify.addHook('onSend', async (request, reply) => {
    const start = started.get(request);
    if (start === undefined) return;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    void reply.header('server-timing', `app;dur=${ms.toFixed(2)}`);
  });
}

/** A shared debate's link preview: its topic, and who debates how (no view is counted). */
async function sharedDebateMeta(
  services: ServiceClient,
  debateId: string,
): Promise<PageMeta | undefined> {
  if (debateId.length === 0 || debateId.length > 128) return undefined;
  const { debate } = await services.request(communityDebateContracts.get, {
    debateId,
    countView: false,
  });
  if (!debate) return undefined;
  return {
    title: debate.topic,
    description:
      `Two AI speakers debate "${debate.topic}" in three rounds ` +
      `(${debate.categories.join(', ')}). For ${debate.upvotes}, ` +
      `Against ${debate.downvotes}, Interesting ${debate.interesting}.`,
  };
}

/** Builds the gateway application on Fastify, ready for `listen`. */
export async function createGateway(
  options: CreateGatewayOptions,
): Promise<NestFastifyApplication> {
  const limits = options.limits ?? defaultGatewayLimits();
  const module = await GatewayModule.register({
    transport: options.transport,
    logLevel: options.logLevel ?? 'info',
    driver: options.driver ?? 'mercurius',
    requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
    healthTimeoutMs: options.healthTimeoutMs ?? 2_000,
    ...(options.authIssuer ? { authIssuer: options.authIssuer } : {}),
    ...(options.authJwksUrl ? { authJwksUrl: options.authJwksUrl } : {}),
    limits,
  });
  const adapterOptions: FastifyServerOptions = { bodyLimit: limits.bodyLimitBytes };
  if (options.trustProxy !== undefined) adapterOptions.trustProxy = options.trustProxy;
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    new FastifyAdapter(adapterOptions),
    options.frameworkLogger ? { logger: options.frameworkLogger } : { bufferLogs: true },
  );
  if (!options.frameworkLogger) app.useLogger(app.get(PinoLoggerService));
  addServerTiming(app.getHttpAdapter().getInstance());
  // Before the GraphQL route exists (it is added at init): the session cookie is read there.
  await app.register(fastifyCookie);
  const services = app.get(ServiceClient);
  const webServed = await registerWebApp(
    app.getHttpAdapter().getInstance(),
    options.webDistDir ?? defaultWebDistDir,
    (debateId) => sharedDebateMeta(services, debateId),
  );
  if (!webServed) {
    app.get(PinoLoggerService).warn('The web app is not built (web/dist): only the API is served.');
  }
  return app;
}
