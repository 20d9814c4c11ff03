import {
  type DebateSettings,
  generationContracts,
  generationTexts,
  type RunEvent,
  runInstanceKey,
  runLookupContract,
} from '@debate/contracts';
import {
  eventually,
  type FakeOpenAi,
  type FakeSearch,
  type ServiceUnderTest,
  startFakeOpenAi,
  startFakeSearch,
  startServiceUnderTest,
} from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, takeWhile, tap, toArray } from 'rxjs';
import { GenerationServiceModule } from '../src/index.js';
import { UsageStandIn } from './usage-stand-in.js';

const ada = { userId: 'ada', email: 'ada@example.org' };

function settingsOf(topic: string, fields: Partial<DebateSettings> = {}): DebateSettings {
  return {
    topic,
    debateFormat: 'oxford',
    moderatorEnabled: true,
    first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
    second: { model: 'offline', stance: -0.8, rhetoricStyle: 'casual', personality: '' },
    ...fields,
  };
}

/** Starts a run for `person` and answers its id (a refusal fails the test). */
async function start(
  generation: ServiceUnderTest,
  settings: DebateSettings,
  person = ada,
  rematchOf?: string,
): Promise<string> {
  const started = await generation.client.request(generationContracts.start, {
    ...person,
    settings,
    ...(rematchOf ? { rematchOf } : {}),
  });
  if (!started.started) throw new Error(`refused: ${started.reason}`);
  return started.runId;
}

/** Every event a watcher of the run is sent until it ends, asked of the instance that has it. */
function watch(generation: ServiceUnderTest, runId: string, userId = ada.userId) {
  return lastValueFrom(
    generation.client
      .stream(generationContracts.watch, { runId, userId }, { instance: runInstanceKey(runId) })
      .pipe(toArray()),
  );
}

/** The finished run as the debates service asks for it, to save it. */
function lookUp(generation: ServiceUnderTest, runId: string, userId = ada.userId) {
  return generation.client.request(
    runLookupContract,
    { runId, userId },
    { instance: runInstanceKey(runId) },
  );
}

/** Stops the run, asking the instance that has it. */
function stop(generation: ServiceUnderTest, runId: string, userId = ada.userId) {
  return generation.client.request(
    generationContracts.stop,
    { runId, userId },
    { instance: runInstanceKey(runId) },
  );
}

/** Watches the run and stops it at the first event `when` picks: what was sent, and the answer. */
async function stopWhen(
  generation: ServiceUnderTest,
  runId: string,
  when: (event: RunEvent) => boolean,
) {
  let answer: ReturnType<typeof stop> | undefined;
  const events = await lastValueFrom(
    generation.client
      .stream(
        generationContracts.watch,
        { runId, userId: ada.userId },
        { instance: runInstanceKey(runId) },
      )
      .pipe(
        tap((event) => {
          if (!answer && when(event)) answer = stop(generation, runId);
        }),
        toArray(),
      ),
  );
  return { events, answer: await answer };
}

/** The generation service alone, its speakers as `speakers` say, the usage service stood in for. */
function startGeneration(
  usage: UsageStandIn,
  speakers: Parameters<typeof GenerationServiceModule.register>[0]['speakers'],
): Promise<ServiceUnderTest> {
  return startServiceUnderTest({
    service: 'generation',
    register: (runtime) => GenerationServiceModule.register({ ...runtime, speakers }),
    standIns: { usage: usage.module() },
  });
}

const completedTurns = (events: readonly RunEvent[]) =>
  events.flatMap((event) => (event.type === 'turnCompleted' ? [event] : []));

// The generation service alone, the usage service stood in for, the offline speaker writing.
describe('a debate run', () => {
  const usage = new UsageStandIn();
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    // Fast, yet slow enough that a watcher arriving at once sees it live.
    generation = await startGeneration(usage, {
      OFFLINE_TOKENS_PER_SECOND: 2_000,
      OFFLINE_FIRST_TOKEN_MS: 0,
      TURN_PAUSE_MS: 5,
    });
  });

  afterAll(async () => {
    await generation?.stop();
  });

  it('streams the whole debate to its owner, in order, from its start to its completion', async () => {
    const settings = settingsOf('Should cities ban cars?');
    const runId = await start(generation, settings);
    expect(runInstanceKey(runId)).toBeDefined();
    // Not yet complete: nothing to save.
    expect(await lookUp(generation, runId)).toEqual({ run: null });

    const events = await watch(generation, runId);
    expect(events[0]).toMatchObject({
      type: 'runStarted',
      seq: 0,
      runId,
      topic: 'Should cities ban cars?',
      firstModel: { id: 'offline', label: 'Offline speaker', kind: 'offline' },
      secondModel: { id: 'offline', label: 'Offline speaker', kind: 'offline' },
      firstStance: 0.6,
      secondStance: -0.8,
    });
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events.at(-1)?.type).toBe('runCompleted');

    // Each turn starts, then completes, in the order of the debate, framed by the moderator.
    const turns = events.flatMap((event) =>
      event.type === 'turnStarted' || event.type === 'turnCompleted'
        ? [`${event.type} ${event.turn} ${event.speaker} ${event.round} ${event.roundTitle}`]
        : [],
    );
    const planned = [
      'Moderator 0 Opening',
      'First Speaker 1 Constructive Arguments',
      'Second Speaker 1 Constructive Arguments',
      'First Speaker 2 Rebuttal',
      'Second Speaker 2 Rebuttal',
      'First Speaker 3 Summary',
      'Second Speaker 3 Summary',
      'Moderator 4 Closing',
    ];
    expect(turns).toEqual(
      planned.flatMap((turn, index) => [
        `turnStarted ${index} ${turn}`,
        `turnCompleted ${index} ${turn}`,
      ]),
    );
    for (const turn of completedTurns(events)) {
      expect(turn.failed).toBe(false);
      // Written by the offline speaker, and said so: no model, no tokens.
      expect(turn.writtenBy).toMatchObject({
        kind: 'offline',
        modelId: 'offline',
        label: 'Offline speaker',
        serverModel: null,
        tokensIn: null,
        tokensOut: null,
        turns: 1,
        failedTurns: 0,
      });
      expect(turn.text.length).toBeGreaterThan(50);
      expect(turn.summary.length).toBeGreaterThan(0);
      // The pieces a live watcher was sent add up to the turn's text.
      const pieces = events.flatMap((event) =>
        event.type === 'textDelta' && event.turn === turn.turn ? [event.text] : [],
      );
      if (pieces.length > 0) expect(pieces.join('')).toBe(turn.text);
    }
    expect(events.some((event) => event.type === 'textDelta')).toBe(true);

    // Its debate was taken before it started, and settled once it completed.
    await eventually(
      async () => usage.callsFor(runId),
      (calls) => calls.length === 2,
    );
    expect(usage.callsFor(runId)).toEqual(['consume', 'settle']);
    expect(
      usage.calls.find((call) => call.runId === runId && call.kind === 'settle')?.tokens,
    ).toEqual({ tokensIn: 0, tokensOut: 0 });

    // A watcher arriving after the end gets the debate whole, from the start.
    const late = await watch(generation, runId);
    expect(late[0]?.type).toBe('runStarted');
    expect(late.at(-1)?.type).toBe('runCompleted');
    expect(completedTurns(late)).toEqual(completedTurns(events));

    // Complete, it can be saved: the settings and every turn.
    const { run } = await lookUp(generation, runId);
    expect(run).toEqual({
      runId,
      topic: settings.topic,
      first: settings.first,
      second: settings.second,
      // A single speaker's turns: no team notes.
      turns: completedTurns(events).map(({ speaker, round, text, summary, writtenBy }) => ({
        speaker,
        round,
        text,
        summary,
        writtenBy,
        team: null,
      })),
      // The offline judge's scorecard, as the run sent it.
      verdict: events.flatMap((event) => (event.type === 'verdictReady' ? [event.verdict] : []))[0],
      // Its format, kept for a rematch; it is not one.
      debateFormat: settings.debateFormat,
      moderatorEnabled: settings.moderatorEnabled,
      rematchOf: null,
      stopped: false,
    });
    expect(run?.verdict?.judgedBy.label).toBe('Offline judge');
    // One judge reads it (JUDGE_PANEL_SIZE unset): no panel.
    expect(run?.verdict?.panel).toEqual([]);
  });

  it('keeps the debate a rematch was started for, to be saved with it', async () => {
    const first = await start(generation, settingsOf('Should zoos exist?'));
    await watch(generation, first);
    const rematch = await start(generation, settingsOf('Should zoos exist?'), ada, first);
    await watch(generation, rematch);
    expect((await lookUp(generation, rematch)).run?.rematchOf).toBe(first);
  });

  it('belongs to its owner alone: nobody else can watch or save it', async () => {
    const runId = await start(generation, settingsOf('Is homework useful?'));
    await watch(generation, runId);
    await expect(watch(generation, runId, 'eve')).rejects.toThrow(/No such debate run/);
    expect(await lookUp(generation, runId, 'eve')).toEqual({ run: null });
    expect((await lookUp(generation, runId)).run?.runId).toBe(runId);
  });

  describe('stopped by its owner', () => {
    it("keeps what was written, cut where it was, and uses the free debate once a speaker's turn is complete", async () => {
      const runId = await start(generation, settingsOf('Should museums be free?'));
      // Nobody else can stop it: their stop reads as for a run that does not exist.
      await expect(stop(generation, runId, 'eve')).rejects.toThrow(/No such debate run/);
      // Stopped as the second speaker starts writing (the moderator, then the first spoke).
      const { events, answer } = await stopWhen(
        generation,
        runId,
        (event) => event.type === 'textDelta' && event.turn === 2,
      );
      expect(answer).toEqual({ stopped: true, freeDebateUsed: true });
      expect(events.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
      const turns = completedTurns(events);
      expect(turns.map((turn) => [turn.speaker, turn.cutOff])).toEqual([
        ['Moderator', false],
        ['First Speaker', false],
        ['Second Speaker', true],
      ]);
      expect(turns[2]?.summary).toBe(generationTexts.turnCutOff);
      expect(events.map((event) => event.type)).not.toContain('judgingStarted');
      // Settled like a completed run (before the stop was answered), and saveable: marked
      // stopped, without a verdict.
      expect(usage.callsFor(runId)).toEqual(['consume', 'settle']);
      const { run } = await lookUp(generation, runId);
      expect(run).toMatchObject({ stopped: true, verdict: null });
      expect(run?.turns.map((turn) => turn.speaker)).toEqual([
        'Moderator',
        'First Speaker',
        'Second Speaker',
      ]);
      // Stopping it again changes nothing.
      expect(await stop(generation, runId)).toEqual({ stopped: false, freeDebateUsed: true });
      expect(await watch(generation, runId)).toEqual(
        events.filter((event) => event.type !== 'textDelta' && event.type !== 'turnStage'),
      );
      expect(usage.callsFor(runId)).toEqual(['consume', 'settle']);
    });

    it("uses the free debate once a speaker's model has written, though a turn cut off cannot be saved", async () => {
      const runId = await start(generation, settingsOf('Should voting be compulsory?'));
      const { events, answer } = await stopWhen(
        generation,
        runId,
        (event) => event.type === 'textDelta' && event.turn === 1,
      );
      expect(answer).toEqual({ stopped: true, freeDebateUsed: true });
      expect(events.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
      // Settled before the stop was answered: the count the user is shown next is right.
      expect(usage.callsFor(runId)).toEqual(['consume', 'settle']);
      // No speaker's turn is whole: nothing to save.
      expect(await lookUp(generation, runId)).toEqual({ run: null });
    });

    it('leaves a completed run as it was', async () => {
      const runId = await start(generation, settingsOf('Should chess be in schools?'));
      await watch(generation, runId);
      expect(await stop(generation, runId)).toEqual({ stopped: false, freeDebateUsed: true });
      expect((await lookUp(generation, runId)).run).toMatchObject({ stopped: false });
    });
  });

  it('starts nothing when the usage service refuses, and says why', async () => {
    const before = usage.calls.length;
    try {
      for (const [refusal, message] of [
        ['no_free_debates', generationTexts.noFreeDebates],
        ['rate_limited', generationTexts.rateLimited],
      ] as const) {
        usage.refusal = refusal;
        expect(
          await generation.client.request(generationContracts.start, {
            ...ada,
            settings: settingsOf('Should zoos exist?'),
          }),
        ).toEqual({ started: false, reason: refusal, message });
      }
    } finally {
      usage.refusal = undefined;
    }
    // Asked twice, and nothing to settle or give back.
    expect(usage.calls.slice(before).map((call) => call.kind)).toEqual(['consume', 'consume']);
  });

  it('refuses a model the catalogue does not have, before taking anything', async () => {
    const before = usage.calls.length;
    const settings = settingsOf('Should zoos exist?');
    expect(
      await generation.client.request(generationContracts.start, {
        ...ada,
        settings: { ...settings, second: { ...settings.second, model: 'gpt-4' } },
      }),
    ).toEqual({
      started: false,
      reason: 'unknown_model',
      speaker: 'second',
      message: 'No model "gpt-4" is offered here; pick one from the list',
    });
    expect(usage.calls.length).toBe(before);
  });
});

/** Sends the person's text for a turn, asking the instance that has the run. */
function submitTurn(
  generation: ServiceUnderTest,
  runId: string,
  turn: number,
  text: string,
  userId = ada.userId,
) {
  return generation.client.request(
    generationContracts.submitTurn,
    { userId, runId, turn, text },
    { instance: runInstanceKey(runId) },
  );
}

/** The events of the run until it awaits the person's `turn` (the watch then ends). */
function untilAwaiting(generation: ServiceUnderTest, runId: string, turn: number) {
  return lastValueFrom(
    generation.client
      .stream(
        generationContracts.watch,
        { runId, userId: ada.userId },
        { instance: runInstanceKey(runId) },
      )
      .pipe(
        takeWhile((event) => !(event.type === 'turnAwaiting' && event.turn === turn), true),
        toArray(),
      ),
  );
}

/** A person's turn of `count` words, in sentences of six (the last may be shorter). */
function wordsOf(count: number, about: string): string {
  const words = Array.from({ length: count }, (_, index) => `${about}${index + 1}`);
  const sentences: string[] = [];
  for (let at = 0; at < words.length; at += 6)
    sentences.push(`${words.slice(at, at + 6).join(' ')}.`);
  return sentences.join(' ');
}

// Ada writes the second side's turns against the offline speaker.
describe('a debate against a person', () => {
  const usage = new UsageStandIn();
  let generation: ServiceUnderTest;
  const adaSecond = (topic: string) =>
    settingsOf(topic, {
      moderatorEnabled: false,
      second: { model: 'person', stance: -0.8, rhetoricStyle: 'standard', personality: '' },
      person: { speaker: 'second', displayName: 'Ada Lovelace' },
    });

  beforeAll(async () => {
    generation = await startGeneration(usage, {
      OFFLINE_TOKENS_PER_SECOND: 0,
      OFFLINE_FIRST_TOKEN_MS: 0,
      TURN_PAUSE_MS: 0,
    });
  });

  afterAll(async () => {
    await generation?.stop();
  });

  it("refuses another user's turn on my run as a run that does not exist", async () => {
    const runId = await start(generation, adaSecond('Should zoos exist?'));
    await untilAwaiting(generation, runId, 1);
    await expect(submitTurn(generation, runId, 1, wordsOf(50, 'w'), 'eve')).rejects.toThrow(
      /No such debate run/,
    );
    // Nothing of Eve's was taken: the turn is still Ada's to write.
    expect(await submitTurn(generation, runId, 1, wordsOf(50, 'ada'))).toEqual({ accepted: true });
    await stop(generation, runId);
  });

  it('refuses a turn over the limit, naming it, and stores nothing of it', async () => {
    const runId = await start(generation, adaSecond('Should museums be free?'));
    const before = await untilAwaiting(generation, runId, 1);
    expect(await submitTurn(generation, runId, 1, wordsOf(401, 'w'))).toEqual({
      accepted: false,
      reason: 'too_long',
      message:
        'Your turn is too long: at most 400 words for Constructive Arguments (you wrote 401).',
    });
    expect(await untilAwaiting(generation, runId, 1)).toEqual(before);
    expect(await stop(generation, runId)).toEqual({ stopped: true, freeDebateUsed: true });
    const { run } = await lookUp(generation, runId);
    // Only the offline speaker's opening was kept: the refused turn never was.
    expect(run?.turns.map((turn) => turn.writtenBy.kind)).toEqual(['offline']);
  });

  it('is written, answered, judged and kept to its end, the person named on their turns', async () => {
    const runId = await start(generation, adaSecond('Should cities ban cars?'));
    const texts = { 1: wordsOf(60, 'open'), 3: wordsOf(30, 'answer'), 5: wordsOf(24, 'close') };
    for (const [turn, text] of Object.entries(texts)) {
      await untilAwaiting(generation, runId, Number(turn));
      expect(await submitTurn(generation, runId, Number(turn), text)).toEqual({ accepted: true });
    }
    const events = await watch(generation, runId);
    expect(events.slice(-3).map((event) => event.type)).toEqual([
      'judgingStarted',
      'verdictReady',
      'runCompleted',
    ]);
    await eventually(
      async () => usage.callsFor(runId),
      (calls) => calls.length === 2,
    );
    expect(usage.callsFor(runId)).toEqual(['consume', 'settle']);
    const { run } = await lookUp(generation, runId);
    expect(run?.verdict?.judgedBy.label).toBe('Offline judge');
    expect(run?.second.model).toBe('person');
    expect(
      run?.turns.map((turn) => [turn.speaker, turn.writtenBy.kind, turn.writtenBy.label]),
    ).toEqual([
      ['First Speaker', 'offline', 'Offline speaker'],
      ['Second Speaker', 'person', 'Ada Lovelace'],
      ['First Speaker', 'offline', 'Offline speaker'],
      ['Second Speaker', 'person', 'Ada Lovelace'],
      ['First Speaker', 'offline', 'Offline speaker'],
      ['Second Speaker', 'person', 'Ada Lovelace'],
    ]);
    // The offline speaker's rebuttal and summary each quote a sentence of Ada's last turn.
    expect(run?.turns[2]?.text).toMatch(/You said: “open\d+ [^”]*\.”/);
    expect(run?.turns[4]?.text).toMatch(/You said: “answer\d+ [^”]*\.”/);
  });
});

describe('a debate run whose speaker fails every turn', () => {
  const usage = new UsageStandIn();
  let openai: FakeOpenAi;
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    openai.mode = { kind: 'status', status: 500 };
    generation = await startGeneration(usage, {
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_MAX_RETRIES: 0,
      TURN_PAUSE_MS: 0,
    });
  });

  afterAll(async () => {
    await generation?.stop();
    await openai?.close();
  });

  it("reports each turn's failure, fails the run and gives its debate back", async () => {
    const runId = await start(
      generation,
      settingsOf('Should cities ban cars?', {
        moderatorEnabled: false,
        first: { model: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
        second: { model: 'gpt-3.5-turbo', stance: -0.8, rhetoricStyle: 'casual', personality: '' },
      }),
    );
    const events = await watch(generation, runId);
    expect(events[0]).toMatchObject({
      type: 'runStarted',
      firstModel: { id: 'gpt-4', label: 'gpt-4', kind: 'model' },
      secondModel: { id: 'gpt-3.5-turbo', label: 'gpt-3.5-turbo', kind: 'model' },
    });
    const turns = completedTurns(events);
    expect(turns).toHaveLength(6);
    for (const turn of turns) {
      expect(turn).toMatchObject({
        failed: true,
        text: generationTexts.turnFailedText,
        summary: generationTexts.turnFailedSummary,
        // The model that failed it is named, and nothing is claimed it wrote.
        writtenBy: { kind: 'model', turns: 1, failedTurns: 1, serverModel: null, tokensOut: null },
      });
    }
    expect(events.at(-1)).toMatchObject({ type: 'runFailed', message: generationTexts.runFailed });
    expect(openai.requests.length).toBeGreaterThanOrEqual(6);

    await eventually(
      async () => usage.callsFor(runId),
      (calls) => calls.length === 2,
    );
    expect(usage.callsFor(runId)).toEqual(['consume', 'refund']);
    // A failed run cannot be saved.
    expect(await lookUp(generation, runId)).toEqual({ run: null });
  });
});

/** A catalogue entry for a judge on the fake server. */
const judgeOn = (fake: FakeOpenAi, id: string) => ({
  id,
  label: `Judge ${id}`,
  baseUrl: fake.baseUrl,
  providerModel: `provider-${id}`,
  structuredOutput: 'tool_call' as const,
  speakerMode: 'single' as const,
  maxTokens: 800,
  maxConcurrentTurns: 4,
});

// Three judges read each debate (JUDGE_PANEL_SIZE=3): two models, on two servers, and the offline
// judge, whose id is also the offline speakers' (it spoke). The scorecard is the first judge's
// that did not speak; the others' verdicts are its panel, for the judges' record.
describe('a debate read by a panel of judges', () => {
  const usage = new UsageStandIn();
  let steady: FakeOpenAi;
  let flaky: FakeOpenAi;
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    steady = await startFakeOpenAi({ family: 'openai' });
    flaky = await startFakeOpenAi({ family: 'openai' });
    // Its judge prefers whichever speaker it reads first: its two readings disagree.
    flaky.judgeFavoursFirst = true;
    generation = await startGeneration(usage, {
      MODEL_CATALOG: [judgeOn(steady, 'judge-a'), judgeOn(flaky, 'judge-b')],
      JUDGE_MODELS: ['offline', 'judge-a', 'judge-b'],
      JUDGE_PANEL_SIZE: 3,
      OPENAI_MAX_RETRIES: 0,
      OFFLINE_TOKENS_PER_SECOND: 5_000,
      OFFLINE_FIRST_TOKEN_MS: 0,
      TURN_PAUSE_MS: 0,
    });
  });

  afterAll(async () => {
    await generation?.stop();
    await steady?.close();
    await flaky?.close();
  });

  /** The verdict the run sent, and the one it keeps for saving. */
  async function judged(topic: string) {
    const runId = await start(generation, settingsOf(topic, { moderatorEnabled: false }));
    const events = await watch(generation, runId);
    expect(events.at(-1)?.type).toBe('runCompleted');
    const sent = events.flatMap((event) => (event.type === 'verdictReady' ? [event.verdict] : []));
    const { run } = await lookUp(generation, runId);
    expect(run?.verdict).toEqual(sent[0]);
    return sent[0];
  }

  it("keeps the scorecard the first judge's, with the other judges' verdicts beside it", async () => {
    flaky.mode = { kind: 'stream' };
    const verdict = await judged('Should cities ban cars?');
    // The offline judge gives way to judge-a for the scorecard, and sits on the panel.
    expect(verdict?.judgedBy).toMatchObject({ kind: 'model', modelId: 'judge-a', turns: 2 });
    expect(verdict?.scores).toHaveLength(8);
    expect(verdict?.panel.map((member) => member.judgedBy.modelId)).toEqual(['offline', 'judge-b']);
    expect(verdict?.panel[0]?.judgedBy).toMatchObject({ kind: 'offline', label: 'Offline judge' });
    // Each read it twice, sides swapped, and gave its own verdict, without the criteria.
    expect(verdict?.panel[1]).toMatchObject({
      winner: null,
      tie: true,
      tieReason: 'readings_disagree',
      readings: [
        { order: 'as_given', winner: 'First Speaker' },
        { order: 'swapped', winner: 'Second Speaker' },
      ],
      judgedBy: { kind: 'model', label: 'Judge judge-b', turns: 2 },
    });
    expect(verdict?.panel[1]).not.toHaveProperty('scores');
  });

  it('leaves a judge that fails out of the panel, and still gives the scorecard', async () => {
    flaky.mode = { kind: 'status', status: 500 };
    const verdict = await judged('Should museums be free?');
    expect(verdict?.judgedBy.modelId).toBe('judge-a');
    expect(verdict?.panel.map((member) => member.judgedBy.modelId)).toEqual(['offline']);
    expect(flaky.requests.at(-1)?.answeredAs).toBe(500);
  });
});

// The offline speaker as a team (OFFLINE_SPEAKER_MODE=team) with a search backend (SearXNG's
// JSON API, faked): its searcher, analyzer, writer, reviewer and revision, reported as stages,
// and how each speech was made kept for saving.
describe('a debate run whose speakers are teams', () => {
  const usage = new UsageStandIn();
  let generation: ServiceUnderTest;
  let search: FakeSearch;

  beforeAll(async () => {
    search = await startFakeSearch();
    generation = await startGeneration(usage, {
      OFFLINE_SPEAKER_MODE: 'team',
      SEARCH_URL: search.baseUrl,
      OFFLINE_TOKENS_PER_SECOND: 5_000,
      OFFLINE_FIRST_TOKEN_MS: 0,
      TURN_PAUSE_MS: 0,
    });
  });

  afterAll(async () => {
    await generation?.stop();
    await search?.close();
  });

  it('reports each stage, streams the revision from its start, and keeps the sources, the plan and the fixes', async () => {
    const runId = await start(generation, settingsOf('Should cities ban cars?'));
    const events = await watch(generation, runId);
    expect(events.at(-1)?.type).toBe('runCompleted');
    // The first speaker's opening: analyzed, written, reviewed, then revised (its reviewer wants
    // the stakes said), the revision's words streamed after the 'revising' stage.
    const opening = events.filter(
      (event) => (event.type === 'turnStage' || event.type === 'textDelta') && event.turn === 1,
    );
    const stages = opening.flatMap((event) => (event.type === 'turnStage' ? [event.stage] : []));
    expect(stages).toEqual(['searching', 'analyzing', 'writing', 'reviewing', 'revising']);
    const revising = opening.findIndex(
      (event) => event.type === 'turnStage' && event.stage === 'revising',
    );
    const revisionText = opening
      .slice(revising + 1)
      .map((event) => (event.type === 'textDelta' ? event.text : ''))
      .join('');
    const [, first, , rebuttal] = completedTurns(events);
    expect(revisionText).toBe(first?.text);
    expect(first?.text).toMatch(/What is at stake: if "Should cities ban cars" is decided wrongly/);
    // The speech cites what the searcher found.
    expect(first?.text).toContain('As [1] reports: Study 1 on Should cities ban cars.');
    expect(first?.team).toEqual({
      searched: true,
      evidence: [1, 2, 3].map((n) => ({
        title: `Study ${n} on Should cities ban cars`,
        url: `https://example.org/study-${n}?q=Should%20cities%20ban%20cars`,
      })),
      plan: expect.stringMatching(/^Open for "Should cities ban cars" with the strongest reason/),
      review: 'fixes',
      fixes: ['Close by saying what is at stake if the motion is decided wrongly.'],
      revised: true,
      steps: 5,
    });
    // A rebuttal that answers the opponent is accepted as drafted: three steps.
    expect(rebuttal?.team).toMatchObject({
      review: 'accepted',
      fixes: [],
      revised: false,
      steps: 4,
    });
    // The moderator's turns are no side's speech: written alone.
    expect(completedTurns(events)[0]).toMatchObject({ speaker: 'Moderator', team: null });
    expect(rebuttal?.team?.plan).toMatch(/^Answer "/);
    // Saving gets each turn's notes.
    const { run } = await lookUp(generation, runId);
    expect(run?.turns[1]?.team).toEqual(first?.team);
  });
});

// A speaker whose model takes its time over its first word: a stop before it costs nothing.
describe('a debate run stopped before a speaker wrote a word', () => {
  const usage = new UsageStandIn();
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    generation = await startGeneration(usage, {
      OFFLINE_TOKENS_PER_SECOND: 2_000,
      OFFLINE_FIRST_TOKEN_MS: 30_000,
      TURN_PAUSE_MS: 0,
    });
  });

  afterAll(async () => {
    await generation?.stop();
  });

  it('gives the free debate back, and keeps nothing', async () => {
    const runId = await start(
      generation,
      settingsOf('Should libraries lend tools?', { moderatorEnabled: false }),
    );
    const { events, answer } = await stopWhen(
      generation,
      runId,
      (event) => event.type === 'turnStarted' && event.turn === 0,
    );
    expect(answer).toEqual({ stopped: true, freeDebateUsed: false });
    expect(events.map((event) => event.type)).toEqual(['runStarted', 'turnStarted', 'runStopped']);
    expect(usage.callsFor(runId)).toEqual(['consume', 'refund']);
    expect(await lookUp(generation, runId)).toEqual({ run: null });
  });
});
