import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a shared page tells link previews (Open Graph). */
export interface PageMeta {
  readonly title: string;
  readonly description: string;
}

/** The meta of a shared debate's page, or undefined when there is no such public debate. */
export type PageMetaSource = (debateId: string) => Promise<PageMeta | undefined>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** index.html with the page's title, description and Open Graph tags in its head. */
export function withMeta(index: string, meta: PageMeta): string {
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const tags = [
    `<meta property="og:type" content="article" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta name="twitter:card" content="summary" />`,
  ].join('\n    ');
  // Replacer functions: a replacement string would read `$&` or `` $` `` in a topic as patterns.
  return index
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title} - AI Debate</title>\n    ${tags}`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${description}" />`,
    );
}

/**
 * Serves the built web app: its files (hashed assets cached for a year, compressed when the
 * browser accepts it), and index.html for any other GET path that names a page, so React
 * Router sees deep links.
 * A missing file (a path whose last segment has an extension) stays a 404. A shared debate's
 * page (/community/debate/:id) carries its topic in Open Graph tags, for link previews.
 */
export async function registerWebApp(
  fastify: FastifyInstance,
  distDir: string,
  pageMeta?: PageMetaSource,
): Promise<boolean> {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  await fastify.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // web/dist/assets holds a .br and a .gz of each script and stylesheet (the web build
    // makes them): served to browsers that accept them.
    preCompressed: true,
    // The headers are ours (setHeaders): send's own Cache-Control would replace them.
    cacheControl: false,
    setHeaders: (reply, path) => {
      const asset = path.includes('/assets/');
      reply.header('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (asset) reply.header('vary', 'accept-encoding');
    },
  });
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const lastSegment = request.url.split('?')[0]?.split('/').pop() ?? '';
    if (lastSegment.includes('.')) return reply.code(404).send({ message: 'Not Found' });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  if (pageMeta) {
    const index = readFileSync(join(distDir, 'index.html'), 'utf8');
    fastify.get<{ Params: { id: string } }>('/community/debate/:id', async (request, reply) => {
      const meta = await pageMeta(request.params.id).catch(() => undefined);
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
      return meta ? withMeta(index, meta) : index;
    });
  }
  fastify.get('/', sendIndex);
  fastify.get('/*', sendIndex);
  return true;
}
