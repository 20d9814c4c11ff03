import { MAX_EVIDENCE, type Evidence } from '@debate/contracts';
import { z } from 'zod';
import { quoted } from '../quoted.js';
import type { TurnRequest } from '../speaker.js';

/** Where a team's searcher asks: a SearXNG instance's JSON API (or a server answering its shape). */
export interface SearchBackend {
  /** The instance's base URL: the searcher asks `${url}/search?q=…&format=json`. */
  readonly url: string;
  /** Sent as `Authorization: Bearer …` when set (a commercial API behind a gateway). */
  readonly apiKey?: string | undefined;
  /** How long a search may take. */
  readonly timeoutMs: number;
}

/** A piece of evidence with what the search engine quoted of it, for the analyzer and writer. */
export interface Found extends Evidence {
  readonly snippet: string;
}

/** SearXNG's answer to `format=json`, as far as the searcher reads it. */
const SearxngAnswer = z.object({ results: z.array(z.unknown()) });

/** One result: a result without a title or with a link that is not http(s) is skipped. */
const SearxngResult = z.object({
  url: z.url({ protocol: /^https?$/ }),
  title: z.string().trim().min(1),
  content: z.string().optional(),
});

/** What the searcher looks for: the motion, and in a rebuttal the opponent's last point. */
function searchQuery(request: TurnRequest): string {
  const motion = request.topic.trim().replace(/[?.!]+$/, '');
  const opponent = [...request.earlier]
    .reverse()
    .find((turn) => turn.speaker !== request.speaker && turn.speaker !== 'Moderator');
  return request.round >= 2 && opponent ? `${motion} ${opponent.summary}`.slice(0, 400) : motion;
}

/**
 * The team's searcher: evidence for the round from the operator's search backend, at most
 * MAX_EVIDENCE results with their titles and links (and the snippets the analyzer and the
 * writer read). Throws when the backend fails or answers something else; the team then goes on
 * without evidence.
 */
export class Searcher {
  constructor(private readonly backend: SearchBackend) {}

  async search(request: TurnRequest, signal: AbortSignal): Promise<Found[]> {
    const url = new URL(
      'search',
      this.backend.url.endsWith('/') ? this.backend.url : `${this.backend.url}/`,
    );
    url.searchParams.set('q', searchQuery(request));
    url.searchParams.set('format', 'json');
    const response = await fetch(url, {
      headers: {
        accept: 'application/json',
        ...(this.backend.apiKey ? { authorization: `Bearer ${this.backend.apiKey}` } : {}),
      },
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.backend.timeoutMs)]),
    });
    if (!response.ok) throw new Error(`The search backend answered ${response.status}`);
    const answer = SearxngAnswer.parse(await response.json());
    const seen = new Set<string>();
    const found: Found[] = [];
    for (const candidate of answer.results) {
      const parsed = SearxngResult.safeParse(candidate);
      if (!parsed.success) continue;
      const result = parsed.data;
      if (seen.has(result.url)) continue;
      seen.add(result.url);
      found.push({
        title: result.title.slice(0, 300),
        url: result.url.slice(0, 2000),
        snippet: (result.content ?? '').replace(/\s+/g, ' ').trim().slice(0, 500),
      });
      if (found.length >= MAX_EVIDENCE) break;
    }
    return found;
  }
}

/** The evidence as the analyzer and the writer read it: numbered, to be cited as [n]. */
export function evidenceLines(found: readonly Found[]): string[] {
  if (found.length === 0) return [];
  return [
    'Evidence found (cite what you use as [n]):',
    ...found.map((item, index) =>
      quoted('source', item.snippet, { n: index + 1, title: item.title, url: item.url }),
    ),
  ];
}
