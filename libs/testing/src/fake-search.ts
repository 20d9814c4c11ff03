import Fastify from 'fastify';
import { listeningUrl } from '@debate/nest';

export interface RecordedSearch {
  readonly query: string;
  readonly format: string | undefined;
  readonly authorization: string | undefined;
}

export interface FakeSearch {
  /** The base URL to configure (SEARCH_URL): it answers `/search?q=…&format=json`. */
  readonly baseUrl: string;
  /** Answer every search with this HTTP status instead (a backend that is down). */
  failWith: number | null;
  readonly searches: RecordedSearch[];
  close(): Promise<void>;
}

/**
 * A SearXNG instance's JSON API for the tests (the edge of the world): three results a search,
 * titled after the query, each with a link and a snippet, as SearXNG answers `format=json`.
 */
export async function startFakeSearch(): Promise<FakeSearch> {
  const http = Fastify();
  const state: { failWith: number | null; searches: RecordedSearch[] } = {
    failWith: null,
    searches: [],
  };
  http.get('/search', async (request, reply) => {
    const query = request.query as { q?: string; format?: string };
    state.searches.push({
      query: query.q ?? '',
      format: query.format,
      authorization: request.headers.authorization,
    });
    if (state.failWith !== null) return reply.code(state.failWith).send('unavailable');
    // SearXNG answers HTML unless asked for JSON.
    if (query.format !== 'json') return reply.type('text/html').send('<html></html>');
    const words = (query.q ?? '').split(/\s+/).slice(0, 4).join(' ');
    return {
      query: query.q,
      number_of_results: 3,
      results: [1, 2, 3].map((n) => ({
        url: `https://example.org/study-${n}?q=${encodeURIComponent(words)}`,
        title: `Study ${n} on ${words}`,
        content: `Finding ${n}: what the evidence says about ${words}.`,
        engine: 'fake',
      })),
    };
  });
  await http.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: listeningUrl(http.server, '127.0.0.1'),
    get failWith() {
      return state.failWith;
    },
    set failWith(status: number | null) {
      state.failWith = status;
    },
    searches: state.searches,
    close: async () => {
      await http.close();
    },
  };
}
