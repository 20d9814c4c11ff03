import {
  catalogContracts,
  type DebateSettings,
  generationContracts,
  type RunEvent,
  runInstanceKey,
} from '@debate/contracts';
import { type ModelServer, startModelServer } from '@debate/embedded-model';
import {
  type ServiceUnderTest,
  startServiceUnderTest,
  tinyModelFile,
  untilPasses,
} from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, toArray } from 'rxjs';
import { GenerationServiceModule } from '../src/index.js';
import { UsageStandIn } from './usage-stand-in.js';

/**
 * The generation service against the embedded model server on the tests' tiny model: the real
 * llama.cpp engine answers every turn, team call and scorecard through the service's own
 * OpenAI-compatible path, with no fake in between. The tiny model's words are random: what is
 * asserted is the structure (every answer parsed from grammar-constrained output) and the
 * behaviour, never the words.
 */
const ada = { userId: 'ada', email: 'ada@example.org' };
const LABEL = 'Local: Tiny random debate model';

function settingsOf(
  topic: string,
  first: string,
  second: string,
  moderatorEnabled = true,
): DebateSettings {
  return {
    topic,
    debateFormat: 'oxford',
    moderatorEnabled,
    first: { model: first, stance: 0.6, rhetoricStyle: 'formal', personality: '' },
    second: { model: second, stance: -0.6, rhetoricStyle: 'casual', personality: '' },
  };
}

const completed = (events: readonly RunEvent[]) =>
  events.flatMap((event) => (event.type === 'turnCompleted' ? [event] : []));

let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer({
    source: { file: await tinyModelFile() },
    threads: 1,
    sequences: 2,
    contextSize: 16_384,
  });
  await server.ready();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function running(): Promise<number> {
  const health = (await (await fetch(`${server.origin}/health`)).json()) as { running: number };
  return health.running;
}

async function start(generation: ServiceUnderTest, settings: DebateSettings): Promise<string> {
  const started = await generation.client.request(generationContracts.start, { ...ada, settings });
  if (!started.started) throw new Error(`refused: ${started.reason}`);
  return started.runId;
}

describe('a debate on the embedded model server', () => {
  const usage = new UsageStandIn();
  let generation: ServiceUnderTest;

  async function begin(settings: DebateSettings): Promise<string> {
    return start(generation, settings);
  }

  function watch(runId: string): Promise<RunEvent[]> {
    return lastValueFrom(
      generation.client
        .stream(
          generationContracts.watch,
          { runId, userId: ada.userId },
          { instance: runInstanceKey(runId) },
        )
        .pipe(toArray()),
    );
  }

  beforeAll(async () => {
    generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) =>
        GenerationServiceModule.register({
          ...runtime,
          speakers: {
            // The local model as npm start offers it (first, and the judge)...
            LOCAL_MODEL_SERVER: server.origin,
            // ...and, on the same server, a team speaker as an operator would list it.
            MODEL_CATALOG: [
              {
                id: 'local-team',
                label: 'Local team',
                baseUrl: server.url,
                providerModel: server.modelId,
                structuredOutput: 'json_schema',
                speakerMode: 'team',
                maxTokens: 600,
                maxConcurrentTurns: 4,
              },
            ],
            OPENAI_MAX_RETRIES: 0,
            TURN_PAUSE_MS: 0,
          },
        }),
      standIns: { usage: usage.module() },
    });
    // Offered once the server says it is ready: first, so the web's default for both speakers.
    await untilPasses(async () => {
      const catalog = await generation.client.request(catalogContracts.generationCatalog, {});
      expect(catalog.models.map((model) => model.id)).toEqual(['local', 'local-team', 'offline']);
      expect(catalog.models[0]?.label).toBe(LABEL);
      expect(catalog.localModel).toMatchObject({ status: 'ready', progress: null });
    }, 60_000);
  }, 120_000);

  afterAll(async () => {
    await generation?.stop();
  });

  it('streams a whole debate turn by turn and judges it, every answer parsed from the grammar', async () => {
    const runId = await begin(settingsOf('Should cities ban cars?', 'local', 'local'));
    const events = await watch(runId);
    expect(events.at(-1)?.type).toBe('runCompleted');
    expect(events.some((event) => event.type === 'runFailed')).toBe(false);

    const turns = completed(events);
    expect(turns.map((turn) => `${turn.speaker} ${turn.round}`)).toEqual([
      'Moderator 0',
      'First Speaker 1',
      'Second Speaker 1',
      'First Speaker 2',
      'Second Speaker 2',
      'First Speaker 3',
      'Second Speaker 3',
      'Moderator 4',
    ]);
    for (const turn of turns) {
      // Written by the local model, with what the server counted.
      expect(turn.writtenBy).toMatchObject({
        kind: 'model',
        modelId: 'local',
        label: LABEL,
        serverModel: server.modelId,
        failedTurns: 0,
      });
      expect(turn.writtenBy.tokensIn).toBeGreaterThan(0);
      expect(turn.writtenBy.tokensOut).toBeGreaterThan(0);
      expect(turn.text.trim().length).toBeGreaterThan(0);
      // Streamed word by word: the deltas of the turn make its text.
      const deltas = events.flatMap((event) =>
        event.type === 'textDelta' && event.turn === turn.turn ? [event.text] : [],
      );
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.join('').trim()).toBe(turn.text.trim());
    }
    // Streamed word by word (a character a token, here): many more deltas than turns, though a
    // random model's speech may be a character or two long.
    const deltas = events.filter((event) => event.type === 'textDelta');
    expect(deltas.length).toBeGreaterThan(turns.length * 3);

    // The local model judged it (JUDGE_MODELS unset): a whole scorecard, read twice.
    const verdict = events.flatMap((event) =>
      event.type === 'verdictReady' ? [event.verdict] : [],
    )[0];
    expect(verdict?.judgedBy).toMatchObject({ kind: 'model', modelId: 'local', label: LABEL });
    expect(verdict?.readings).toHaveLength(2);
    expect(verdict?.scores).toHaveLength(8);
    for (const score of verdict?.scores ?? []) {
      expect(score.score).toBeGreaterThanOrEqual(1);
      expect(score.score).toBeLessThanOrEqual(10);
      expect(score.reason.length).toBeGreaterThan(0);
    }
  }, 180_000);

  it('runs a team speaker: analysis, draft and review are each a structured call', async () => {
    const runId = await begin(
      settingsOf('Should zoos exist?', 'local-team', 'local', /* moderator */ false),
    );
    const events = await watch(runId);
    expect(events.at(-1)?.type).toBe('runCompleted');
    const teamTurns = completed(events).filter((turn) => turn.speaker === 'First Speaker');
    expect(teamTurns).toHaveLength(3);
    for (const turn of teamTurns) {
      expect(turn.writtenBy.modelId).toBe('local-team');
      // Analyzer, writer and reviewer, and the revision when the review asked for fixes.
      expect(turn.team?.steps).toBeGreaterThanOrEqual(3);
      expect(turn.team?.steps).toBeLessThanOrEqual(4);
      expect(turn.team?.plan.length).toBeGreaterThan(0);
      const stages = events.flatMap((event) =>
        event.type === 'turnStage' && event.turn === turn.turn ? [event.stage] : [],
      );
      expect(stages).toEqual(expect.arrayContaining(['analyzing', 'writing', 'reviewing']));
    }
  }, 180_000);

  it('writes two debates at once on the one loaded model', async () => {
    let most = 0;
    const sampling = setInterval(() => {
      running().then(
        (count) => (most = Math.max(most, count)),
        () => undefined,
      );
    }, 20);
    try {
      const runs = await Promise.all([
        begin(settingsOf('Should homework be banned?', 'local', 'local', false)),
        begin(settingsOf('Should voting be compulsory?', 'local', 'local', false)),
      ]);
      const [one, two] = await Promise.all(runs.map((runId) => watch(runId)));
      for (const events of [one, two]) {
        expect(events?.at(-1)?.type).toBe('runCompleted');
        expect(completed(events ?? [])).toHaveLength(6);
      }
    } finally {
      clearInterval(sampling);
    }
    // Both sequences of the context were generating at the same moment.
    expect(most).toBe(2);
  }, 180_000);
});

// Its own service: stopping it is what cancels the run (a run is aborted once the drain is over).
describe('a run cancelled mid-turn', () => {
  it('stops the model generating at once', async () => {
    const generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) =>
        GenerationServiceModule.register({
          ...runtime,
          drainTimeoutMs: 0,
          speakers: { LOCAL_MODEL_SERVER: server.origin, TURN_PAUSE_MS: 0, OPENAI_MAX_RETRIES: 0 },
        }),
      standIns: { usage: new UsageStandIn().module() },
    });
    await untilPasses(async () => {
      const catalog = await generation.client.request(catalogContracts.generationCatalog, {});
      expect(catalog.models[0]?.id).toBe('local');
    }, 30_000);
    const runId = await start(
      generation,
      settingsOf('Should cars be banned?', 'local', 'local', false),
    );
    const events: RunEvent[] = [];
    const subscription = generation.client
      .stream(
        generationContracts.watch,
        { runId, userId: ada.userId },
        { instance: runInstanceKey(runId) },
      )
      .subscribe({ next: (event) => events.push(event), error: () => undefined });
    await untilPasses(() => expect(events.some((event) => event.type === 'textDelta')).toBe(true));
    expect(await running()).toBeGreaterThan(0);
    await generation.stop();
    subscription.unsubscribe();
    // The turn's request was dropped: the server stopped generating it.
    await untilPasses(async () => expect(await running()).toBe(0), 5_000);
    expect(events.some((event) => event.type === 'runCompleted')).toBe(false);
  }, 60_000);
});
