import { communityDebateContracts, DebateId } from '@debate/contracts';
import { PinoLoggerService, ServiceClient } from '@debate/nest';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayModule } from './gateway.module.js';
import { type GatewayOptions, withDefaults } from './gateway.options.js';
import { registerSecurityHeaders } from './security-headers/security-headers.js';
import { type PageMeta, registerWebApp } from './web/web-app.js';
import { TokenVerifier } from './auth/token-verifier.js';
import { registerWebSocketServer } from './query-limits/websocket-limits.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';

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
  if (!DebateId.safeParse(debateId).success) return undefined;
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
export async function createGateway(given: GatewayOptions): Promise<NestFastifyApplication> {
  const options = withDefaults(given);
  const module = GatewayModule.register(options);
  const adapterOptions: FastifyServerOptions = { bodyLimit: options.limits.bodyLimitBytes };
  if (options.trustProxy !== undefined) adapterOptions.trustProxy = options.trustProxy;
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    new FastifyAdapter(adapterOptions),
    options.frameworkLogger ? { logger: options.frameworkLogger } : { bufferLogs: true },
  );
  if (!options.frameworkLogger) app.useLogger(app.get(PinoLoggerService));
  addServerTiming(app.getHttpAdapter().getInstance());
  // Before any route: every answer carries them, and so do the plugins a launcher adds later.
  registerSecurityHeaders(app.getHttpAdapter().getInstance());
  // Before the GraphQL route exists (it is added at init): the session cookie is read there.
  await app.register(fastifyCookie);
  // Before Mercurius too, which then takes this WebSocket server, bounded as HTTP is.
  await registerWebSocketServer(
    app.getHttpAdapter().getInstance(),
    {
      maxPayloadBytes: options.limits.bodyLimitBytes,
      connectionInitTimeoutMs: options.limits.connectionInitTimeoutMs,
      openPerAddress: options.limits.websocketsPerAddress,
      openPerAccount: options.limits.websocketsPerAccount,
    },
    app.get(RateLimiter),
    options.authIssuer ? app.get(TokenVerifier) : undefined,
  );
  const services = app.get(ServiceClient);
  const webServed = await registerWebApp(
    app.getHttpAdapter().getInstance(),
    options.webDistDir,
    (debateId) => sharedDebateMeta(services, debateId),
  );
  if (!webServed) {
    app.get(PinoLoggerService).warn('The web app is not built (web/dist): only the API is served.');
  }
  return app;
}
