import type { ModelHealth } from '@debate/contracts';
import { describe, expect, it } from '@jest/globals';
import {
  askHealth,
  type HealthAnswer,
  LocalModelWatcher,
  localModelEntry,
  MAX_BACKOFF_MS,
  MISSES_BEFORE_GIVING_UP,
  nextAskMs,
  POLL_MS,
  readHealth,
  SETTLED_POLL_MS,
} from './local-model.js';
import { Models } from './models.js';

const ORIGIN = 'http://127.0.0.1:8090';

const health = (fields: Partial<ModelHealth> = {}): ModelHealth => ({
  status: 'ready',
  model: 'qwen2.5-1.5b-instruct-q4_k_m',
  name: 'Qwen2.5 1.5B Instruct',
  progress: null,
  reason: null,
  running: 0,
  waiting: 0,
  ...fields,
});
const answered = (fields: Partial<ModelHealth> = {}): HealthAnswer => ({
  kind: 'answered',
  health: health(fields),
});
const unreachable: HealthAnswer = { kind: 'unreachable', reason: 'connect ECONNREFUSED' };

/** A logger that keeps what was said. */
function recorder() {
  const lines: string[] = [];
  const debug: string[] = [];
  return {
    lines,
    debug,
    logger: {
      log: (line: string) => lines.push(line),
      warn: (line: string) => lines.push(line),
      debug: (line: string) => debug.push(line),
    },
  };
}

/** The catalogue of an operator with one model, and the offline speaker. */
function catalogue(judges?: readonly string[]) {
  return new Models(
    [
      {
        id: 'gpt-4',
        label: 'GPT-4',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: 'sk-never-sent',
        providerModel: 'gpt-4o',
        structuredOutput: 'tool_call',
        speakerMode: 'single',
        maxTokens: 1000,
        maxConcurrentTurns: 8,
      },
    ],
    {
      ...(judges ? { judges } : {}),
      timeoutMs: 1_000,
      maxRetries: 0,
      idleTimeoutMs: 1_000,
      offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
    },
    { log: () => undefined, warn: () => undefined },
  );
}

describe(readHealth.name, () => {
  it('reads the 503 of a model on its way as the 200 of a ready one', async () => {
    const body = health({ status: 'downloading', progress: 0.5 });
    expect(await readHealth(Response.json(body, { status: 503 }))).toEqual({
      kind: 'answered',
      health: body,
    });
    expect(await readHealth(Response.json({ ...health(), uptime: 3 }))).toEqual(answered());
  });

  it('says what is wrong with an answer that is no model health', async () => {
    const notJson = await readHealth(new Response('<html>', { status: 404 }));
    expect(notJson).toEqual({ kind: 'unreadable', reason: 'HTTP 404 without a JSON body' });
    const other = await readHealth(Response.json({ status: 'UP' }));
    expect(other.kind).toBe('unreadable');
    expect(other.kind === 'unreadable' && other.reason).toMatch(/^HTTP 200, status: .*model: /);
  });
});

describe(askHealth.name, () => {
  it("asks the origin's /health, a path prefix kept", async () => {
    const asked: string[] = [];
    const answer = await askHealth('http://proxy/model/', AbortSignal.timeout(1_000), (async (
      url: string | URL | Request,
    ) => {
      asked.push(String(url));
      return Response.json(health());
    }) as typeof fetch);
    expect(asked).toEqual(['http://proxy/model/health']);
    expect(answer).toEqual(answered());
  });

  it('takes a server that is not listening for one that does not answer yet', async () => {
    // Port 9 (discard) has no listener here.
    const answer = await askHealth('http://127.0.0.1:9', AbortSignal.timeout(2_000));
    expect(answer.kind).toBe('unreachable');
  });
});

describe(nextAskMs.name, () => {
  it('asks every second while the model downloads or loads, and every minute once settled', () => {
    expect(nextAskMs(answered({ status: 'downloading', progress: 0.1 }), 0)).toBe(POLL_MS);
    expect(nextAskMs(answered({ status: 'loading' }), 0)).toBe(POLL_MS);
    expect(nextAskMs(answered({ status: 'ready' }), 0)).toBe(SETTLED_POLL_MS);
    expect(nextAskMs(answered({ status: 'failed', reason: 'no network' }), 0)).toBe(
      SETTLED_POLL_MS,
    );
  });

  it('backs off from a silent server up to ten seconds', () => {
    const waits = [1, 2, 3, 4, 5, 6, 20].map((misses) => nextAskMs(unreachable, misses));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, MAX_BACKOFF_MS]);
  });
});

describe(localModelEntry.name, () => {
  it("is asked as an OpenAI-compatible server in json_schema mode, by the server's model id", () => {
    expect(localModelEntry(`${ORIGIN}/`, health())).toEqual({
      id: 'local',
      label: 'Local: Qwen2.5 1.5B Instruct',
      baseUrl: `${ORIGIN}/v1`,
      apiKey: undefined,
      providerModel: 'qwen2.5-1.5b-instruct-q4_k_m',
      structuredOutput: 'json_schema',
      speakerMode: 'single',
      maxTokens: 1000,
      maxConcurrentTurns: 8,
    });
  });

  it("cuts a long name to a catalogue label's 60 characters", () => {
    const { label } = localModelEntry(ORIGIN, health({ name: 'x'.repeat(100) }));
    expect(label).toHaveLength(60);
  });
});

describe(LocalModelWatcher.name, () => {
  it('offers nothing and asks nothing without a server', () => {
    const sut = new LocalModelWatcher(
      undefined,
      () => undefined,
      recorder().logger,
      () => {
        throw new Error('asked');
      },
    );
    sut.start();
    expect(sut.view()).toBeNull();
  });

  it('says where the model is, then adds it first once ready, and says so once', () => {
    const { lines, logger } = recorder();
    const models = catalogue();
    const sut = new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: true }),
      logger,
    );
    expect(sut.take(unreachable)).toBe(1_000);
    expect(sut.take(unreachable)).toBe(2_000);
    expect(sut.view()).toEqual({ status: 'loading', name: '', progress: null });
    expect(sut.take(answered({ status: 'downloading', progress: 0.43 }))).toBe(POLL_MS);
    expect(sut.view()).toEqual({
      status: 'downloading',
      name: 'Qwen2.5 1.5B Instruct',
      progress: 0.43,
    });
    // Not offered before it is ready: a run naming it is refused as an unknown model's.
    expect(models.ref('local')).toBeUndefined();
    sut.take(answered({ status: 'loading' }));
    expect(sut.view()).toEqual({
      status: 'loading',
      name: 'Qwen2.5 1.5B Instruct',
      progress: null,
    });
    expect(sut.take(answered())).toBe(SETTLED_POLL_MS);
    expect(models.catalog().map((model) => model.id)).toEqual(['local', 'gpt-4', 'offline']);
    expect(models.catalog()[0]).toEqual({
      id: 'local',
      label: 'Local: Qwen2.5 1.5B Instruct',
      kind: 'model',
      status: 'ok',
      speakerMode: 'single',
    });
    expect(sut.view()).toEqual({ status: 'ready', name: 'Qwen2.5 1.5B Instruct', progress: null });
    expect(lines).toEqual([
      `The local model server at ${ORIGIN} does not answer yet (connect ECONNREFUSED); asking again`,
      'The local model Qwen2.5 1.5B Instruct is ready: debates default to it',
    ]);
  });

  it('judges when JUDGE_MODELS is unset, the speakers of the debate aside', () => {
    const models = catalogue();
    new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: true }),
      recorder().logger,
    ).take(answered());
    expect(models.judgeFor([]).ref.id).toBe('local');
    // The only judge judges a debate it spoke in too.
    expect(models.judgeFor(['local', 'gpt-4']).ref.id).toBe('local');
    expect(models.judgeFor(['local'], true).ref.kind).toBe('offline');
  });

  it("leaves the judging to JUDGE_MODELS' judges when it is set", () => {
    const models = catalogue(['gpt-4']);
    new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: false }),
      recorder().logger,
    ).take(answered());
    expect(models.judgeFor(['local']).ref.id).toBe('gpt-4');
  });

  it('leaves saying why the model failed to its server, and does not offer it', () => {
    const { lines, debug, logger } = recorder();
    const models = catalogue();
    const sut = new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: true }),
      logger,
    );
    expect(
      sut.take(answered({ status: 'failed', reason: 'no network: getaddrinfo ENOTFOUND' })),
    ).toBe(SETTLED_POLL_MS);
    sut.take(answered({ status: 'failed', reason: 'no network: getaddrinfo ENOTFOUND' }));
    expect(sut.view()?.status).toBe('failed');
    expect(models.ref('local')).toBeUndefined();
    // npm start's terminal (or the model server's log) says it once; here only at debug.
    expect(lines).toEqual([]);
    expect(debug).toEqual([
      'The local model Qwen2.5 1.5B Instruct failed: no network: getaddrinfo ENOTFOUND; debates use the other models',
    ]);
  });

  it('offers the model when a failed server is ready after all, and a new model in its place', () => {
    const models = catalogue();
    const sut = new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: true }),
      recorder().logger,
    );
    sut.take(answered({ status: 'failed', reason: 'no network' }));
    expect(models.ref('local')).toBeUndefined();
    sut.take(answered());
    expect(models.catalog().map((model) => model.id)).toEqual(['local', 'gpt-4', 'offline']);
    // Restarted with another model: the catalogue asks for that one from now on.
    sut.take(answered({ model: 'llama-3.2-3b-instruct-q4_k_m', name: 'Llama 3.2 3B' }));
    expect(models.catalog().map((model) => [model.id, model.label])).toEqual([
      ['local', 'Local: Llama 3.2 3B'],
      ['gpt-4', 'GPT-4'],
      ['offline', 'Offline speaker'],
    ]);
    expect(models.judgeFor([]).ref.label).toBe('Local: Llama 3.2 3B');
  });

  it('tells the page there is nothing to wait for when the server never answers, or is not one', () => {
    const silent = new LocalModelWatcher(ORIGIN, () => undefined, recorder().logger);
    for (let ask = 1; ask < MISSES_BEFORE_GIVING_UP; ask += 1) silent.take(unreachable);
    expect(silent.view()?.status).toBe('loading');
    silent.take(unreachable);
    expect(silent.view()).toEqual({ status: 'failed', name: '', progress: null });
    const other = new LocalModelWatcher(ORIGIN, () => undefined, recorder().logger);
    other.take({ kind: 'unreadable', reason: 'HTTP 200, status: invalid option' });
    expect(other.view()?.status).toBe('failed');
  });

  it("is not offered over an operator's model of the same id, and the page stops waiting", () => {
    const { lines, logger } = recorder();
    const models = new Models(
      [
        {
          id: 'local',
          label: "The operator's own",
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: undefined,
          providerModel: 'theirs',
          structuredOutput: 'json_schema',
          speakerMode: 'single',
          maxTokens: 1000,
          maxConcurrentTurns: 8,
        },
      ],
      {
        timeoutMs: 1_000,
        maxRetries: 0,
        idleTimeoutMs: 1_000,
        offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
      },
      { log: () => undefined, warn: () => undefined },
    );
    const sut = new LocalModelWatcher(
      ORIGIN,
      (entry) => models.putFirst(entry, { judge: true }),
      logger,
    );
    sut.take(answered());
    expect(sut.view()?.status).toBe('failed');
    expect(models.catalog().filter((model) => model.id === 'local')).toEqual([
      expect.objectContaining({ label: "The operator's own" }),
    ]);
    expect(lines.at(-1)).toBe(
      'The local model Qwen2.5 1.5B Instruct is not offered: the catalogue has a model local already',
    );
  });

  it('asks again until ready, then no more for a minute', async () => {
    const answers = [unreachable, answered({ status: 'loading' }), answered()];
    let asks = 0;
    let sut: LocalModelWatcher | undefined;
    await new Promise<void>((resolve) => {
      sut = new LocalModelWatcher(
        ORIGIN,
        () => resolve(),
        recorder().logger,
        async () => {
          asks += 1;
          return answers.shift() ?? unreachable;
        },
      );
      sut.start();
      sut.start();
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(asks).toBe(3);
    sut?.stop();
  }, 10_000);

  it('asks no more once stopped', async () => {
    let asks = 0;
    const sut = new LocalModelWatcher(
      ORIGIN,
      () => undefined,
      recorder().logger,
      async () => {
        asks += 1;
        return unreachable;
      },
    );
    sut.onApplicationBootstrap();
    sut.onApplicationShutdown();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asks).toBe(0);
  });
});
