import { listeningUrl } from '@debate/nest';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

/** A test module's app on Fastify, listening on a free loopback port, and its /graphql URL. */
export async function startGraphqlApp(
  module: object,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger: ['error'],
    abortOnError: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${listeningUrl(app.getHttpServer(), '127.0.0.1')}/graphql` };
}
