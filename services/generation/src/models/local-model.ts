import { type LocalModel, ModelEntry, ModelHealth } from '@debate/contracts';
import type { PinoLoggerService } from '@debate/nest';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { ConfiguredModel } from './model-catalog.js';

/** The local model's id in the catalogue: what a run names to be written by it. */
export const LOCAL_MODEL_ID = 'local';

/** How long one completion of the local model may take, at least (a CPU is slower than a provider). */
export const LOCAL_MODEL_TIMEOUT_MS = 300_000;

/** How often /health is asked while the model downloads or loads (the page's progress line). */
export const POLL_MS = 1_000;
/**
 * Once the model is ready or failed, how often its server is still asked: a server restarted
 * with another model, or ready after all (a download retried), is taken up without a restart.
 */
export const SETTLED_POLL_MS = 60_000;
/** Asks without an answer before the page is told there is no local model to wait for. */
export const MISSES_BEFORE_GIVING_UP = 5;
/** The longest wait between two asks of a server that does not answer (yet). */
export const MAX_BACKOFF_MS = 10_000;
/** One ask of /health that takes longer than this counts as no answer. */
const ASK_TIMEOUT_MS = 5_000;

/** What one ask of /health came to. */
export type HealthAnswer =
  | { readonly kind: 'answered'; readonly health: ModelHealth }
  /** No answer: the server is not listening yet (it starts beside us), or is gone. */
  | { readonly kind: 'unreachable'; readonly reason: string }
  /** An answer that is not a model server's health: LOCAL_MODEL_SERVER names something else. */
  | { readonly kind: 'unreadable'; readonly reason: string };

/** The origin without its trailing slashes, so that a path prefix (a proxy's) is kept. */
const trimmed = (origin: string) => origin.replace(/\/+$/, '');

/** Reads a reply of /health, whatever its status: a 503 carries the same fields as the 200. */
export async function readHealth(response: Response): Promise<HealthAnswer> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { kind: 'unreadable', reason: `HTTP ${response.status} without a JSON body` };
  }
  const parsed = ModelHealth.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
    );
    return { kind: 'unreadable', reason: `HTTP ${response.status}, ${issues.join('; ')}` };
  }
  return { kind: 'answered', health: parsed.data };
}

/** Asks the server at `origin` for its health once. */
export async function askHealth(
  origin: string,
  signal: AbortSignal,
  fetchHealth: typeof fetch = fetch,
): Promise<HealthAnswer> {
  let response: Response;
  try {
    response = await fetchHealth(`${trimmed(origin)}/health`, {
      headers: { accept: 'application/json' },
      signal,
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return { kind: 'unreachable', reason: cause instanceof Error ? cause.message : String(cause) };
  }
  return readHealth(response);
}

/**
 * When to ask again after this answer, in milliseconds: every second while the model is on its
 * way, every minute once it is ready or failed.
 * `misses`: the asks in a row, this one included, that brought no health; their wait doubles
 * from POLL_MS up to MAX_BACKOFF_MS, since a server still starting needs no hammering.
 */
export function nextAskMs(answer: HealthAnswer, misses: number): number {
  if (answer.kind === 'answered') {
    const { status } = answer.health;
    return status === 'ready' || status === 'failed' ? SETTLED_POLL_MS : POLL_MS;
  }
  return Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** Math.max(0, misses - 1));
}

/**
 * The catalogue's entry for the served model: asked as the engine's other OpenAI-compatible
 * servers are, in `json_schema` mode (the server enforces the schema with a grammar).
 */
export function localModelEntry(origin: string, health: ModelHealth): ConfiguredModel {
  const entry = ModelEntry.parse({
    id: LOCAL_MODEL_ID,
    // A catalogue label is at most 60 characters; a long GGUF name is cut, not refused.
    label: `Local: ${health.name || health.model}`.slice(0, 60).trim(),
    baseUrl: `${trimmed(origin)}/v1`,
    providerModel: health.model,
    structuredOutput: 'json_schema',
    speakerMode: 'single',
    maxTokens: 1000,
    maxConcurrentTurns: 8,
  });
  // The embedded server asks for no key.
  return { ...entry, apiKey: undefined };
}

/**
 * What the engine page is told: before the server's first answer, it is loading; a server that
 * does not answer after a few asks (LOCAL_MODEL_SERVER names nothing), or answers no model
 * health, is no model to wait for: failed, so the page stops saying it is on its way.
 */
function localModelView(health: ModelHealth | null, givenUp = false): LocalModel {
  if (!health) return { status: givenUp ? 'failed' : 'loading', name: '', progress: null };
  return {
    status: health.status,
    name: health.name,
    progress: health.status === 'downloading' ? health.progress : null,
  };
}

/**
 * The embedded model server seen from the generation service (LOCAL_MODEL_SERVER): asks its
 * /health until it is ready or failed, tells the catalogue's page where it is, and once ready
 * hands its model to `onReady` (the catalogue adds it). Without an origin it does nothing.
 */
export class LocalModelWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private health: ModelHealth | null = null;
  private misses = 0;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private readonly stopped = new AbortController();
  /** What was said once already: a silent server, an unreadable answer. */
  private readonly said = new Set<HealthAnswer['kind']>();

  constructor(
    private readonly origin: string | undefined,
    private readonly onReady: (entry: ConfiguredModel) => void,
    private readonly logger: Pick<PinoLoggerService, 'log' | 'warn'> &
      Partial<Pick<PinoLoggerService, 'debug'>>,
    private readonly ask: (origin: string, signal: AbortSignal) => Promise<HealthAnswer> = (
      origin,
      signal,
    ) => askHealth(origin, signal),
  ) {}

  onApplicationBootstrap(): void {
    this.start();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** Starts asking (once; nothing without an origin). */
  start(): void {
    if (!this.origin || this.started || this.stopped.signal.aborted) return;
    this.started = true;
    this.schedule(0);
  }

  /** Stops asking, an ask under way included. */
  stop(): void {
    this.stopped.abort();
    clearTimeout(this.timer);
  }

  /** The local model for the catalogue's page; null when there is none (no origin). */
  view(): LocalModel | null {
    if (!this.origin) return null;
    const givenUp = this.said.has('unreadable') || this.misses >= MISSES_BEFORE_GIVING_UP;
    return localModelView(this.health, givenUp);
  }

  /**
   * Takes one answer: what the page is told, the catalogue once ready (again when the server
   * comes back with another model), what is logged (each change once). Returns when to ask again.
   */
  take(answer: HealthAnswer): number {
    const origin = this.origin ?? '';
    if (answer.kind !== 'answered') {
      this.misses += 1;
      // What the page is told stays what the server last said, until it gives up waiting.
      if (this.misses >= MISSES_BEFORE_GIVING_UP || answer.kind === 'unreadable') {
        this.health = null;
      }
      if (!this.said.has(answer.kind)) {
        this.said.add(answer.kind);
        // A server starting beside us is not an error until it answers; a wrong one is.
        if (answer.kind === 'unreachable') {
          this.logger.log(
            `The local model server at ${origin} does not answer yet (${answer.reason}); asking again`,
          );
        } else {
          this.logger.warn(
            `The local model server at ${origin} answered /health with no model health (${answer.reason}); asking again`,
          );
        }
      }
      return nextAskMs(answer, this.misses);
    }
    this.misses = 0;
    this.said.delete('unreadable');
    const before = this.health;
    this.health = answer.health;
    if (answer.health.status === 'ready') {
      if (before?.status !== 'ready' || before.model !== answer.health.model) {
        this.ready(origin, answer.health);
      }
    } else if (answer.health.status === 'failed' && before?.status !== 'failed') {
      // Said where it happened (the model server's own output, npm start's terminal): here
      // only for whoever reads the service's debug log.
      this.logger.debug?.(
        `The local model ${answer.health.name} failed: ${answer.health.reason ?? 'no reason given'}; debates use the other models`,
      );
    }
    return nextAskMs(answer, 0);
  }

  private ready(origin: string, health: ModelHealth): void {
    try {
      this.onReady(localModelEntry(origin, health));
    } catch (error) {
      // Not offered after all (e.g. the operator's catalogue has a model `local`): the page
      // must not wait for it.
      const reason = error instanceof Error ? error.message : String(error);
      this.health = { ...health, status: 'failed', reason };
      this.logger.warn(`The local model ${health.name} is not offered: ${reason}`);
      return;
    }
    this.logger.log(`The local model ${health.name} is ready: debates default to it`);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.poll(), delayMs);
    // The next ask keeps no process alive.
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const origin = this.origin;
    if (!origin) return;
    const signal = AbortSignal.any([this.stopped.signal, AbortSignal.timeout(ASK_TIMEOUT_MS)]);
    const answer = await this.ask(origin, signal);
    if (this.stopped.signal.aborted) return;
    this.schedule(this.take(answer));
  }
}
