import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app: its files as they are (hashed assets cached for a year), and
 * index.html for any other GET path that names a page, so React Router sees deep links.
 * A missing file (a path whose last segment has an extension) stays a 404.
 */
export async function registerWebApp(fastify: FastifyInstance, distDir: string): Promise<boolean> {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  await fastify.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    setHeaders: (response, path) => {
      response.setHeader(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const lastSegment = request.url.split('?')[0]?.split('/').pop() ?? '';
    if (lastSegment.includes('.')) return reply.code(404).send({ message: 'Not Found' });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  fastify.get('/', sendIndex);
  fastify.get('/*', sendIndex);
  return true;
}
