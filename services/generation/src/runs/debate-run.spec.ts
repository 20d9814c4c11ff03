import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firstValueFrom, toArray } from 'rxjs';
import type { DebateSettings, RunEvent } from '@debate/contracts';
import { currentDegradations } from '@debate/nest';
import { type FakeOpenAi, metricValue, startFakeOpenAi } from '@debate/testing';
import type { ConfiguredModel } from '../models/model-catalog.js';
import { Models, type ModelsOptions } from '../models/models.js';
import { DebateRun, generateDebate } from './debate-run.js';

const settings: DebateSettings = {
  topic: 'Should homework be banned in primary schools?',
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: 'a teacher' },
};

const quiet = { log: () => undefined, warn: () => undefined };

function modelsWith(
  configured: readonly ConfiguredModel[],
  offline: ModelsOptions['offline'] = { tokensPerSecond: 0, firstTokenDelayMs: 0 },
): Models {
  return new Models(
    configured,
    { timeoutMs: 2_000, maxRetries: 0, idleTimeoutMs: 1_000, offline },
    quiet,
  );
}

/** The offline speaker alone, writing each turn at once. */
const instant = modelsWith([]);

/** A catalogue entry for a model on the fake server. */
function entryOn(fake: FakeOpenAi, id: string): ConfiguredModel {
  return {
    id,
    label: id.toUpperCase(),
    baseUrl: fake.baseUrl,
    apiKey: 'sk-test',
    providerModel: `provider-${id}`,
    structuredOutput: 'tool_call',
    speakerMode: 'single',
    maxTokens: 500,
    maxConcurrentTurns: 4,
  };
}

function completed(events: readonly RunEvent[]) {
  return events.flatMap((event) => (event.type === 'turnCompleted' ? [event] : []));
}

describe('generating a debate', () => {
  it('has each speaker speak in rounds 1 to 3, in order, each turn streamed then completed', async () => {
    const run = new DebateRun('run-1', 'user-1');
    const watched = firstValueFrom(run.watch().pipe(toArray()));
    expect(await generateDebate(run, settings, instant, { pauseMs: 0 })).toBe('completed');
    const events = await watched;
    const turns = completed(events);
    expect(turns.map((turn) => [turn.speaker, turn.round, turn.roundTitle])).toEqual([
      ['First Speaker', 1, 'Constructive Arguments'],
      ['Second Speaker', 1, 'Constructive Arguments'],
      ['First Speaker', 2, 'Rebuttal'],
      ['Second Speaker', 2, 'Rebuttal'],
      ['First Speaker', 3, 'Summary'],
      ['Second Speaker', 3, 'Summary'],
    ]);
    for (const turn of turns) {
      const streamed = events
        .flatMap((event) =>
          event.type === 'textDelta' && event.turn === turn.turn ? [event.text] : [],
        )
        .join('');
      expect(streamed).toBe(turn.text);
      expect(turn.summary.match(/[.!?](\s|$)/g)?.length ?? 0).toBeLessThanOrEqual(3);
    }
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    // Once the Summary is spoken, the judge reads the debate; its scorecard comes before the end.
    expect(events.slice(-3).map((event) => event.type)).toEqual([
      'judgingStarted',
      'verdictReady',
      'runCompleted',
    ]);
    expect(events.at(-3)).toMatchObject({
      judge: { id: 'offline', label: 'Offline judge', kind: 'offline' },
    });
    expect(run.verdict).toMatchObject({ judgedBy: { label: 'Offline judge' } });
    // Kept for later watchers: the completed turns, without their pieces.
    expect(run.history.some((event) => event.type === 'textDelta')).toBe(false);
    expect(completed(run.history)).toEqual(turns);
  });

  it('writes stance-aware turns, and rebuttals that answer the other side', async () => {
    const run = new DebateRun('run-2', 'user-1');
    await generateDebate(run, settings, instant, { pauseMs: 0 });
    const [first, second, firstRebuttal, secondRebuttal] = completed(run.history);
    expect(first?.text).toMatch(/in favour of "Should homework be banned in primary schools"/);
    expect(second?.text).toMatch(/against "Should homework be banned/);
    expect(second?.text).toMatch(/Speaking as a teacher/);
    expect(first?.text).not.toBe(second?.text);
    expect(firstRebuttal?.text).toContain(`My opponent claimed: ${second?.summary.split('. ')[0]}`);
    expect(secondRebuttal?.text).toContain('My opponent claimed:');
  });

  it('frames the debate with a neutral moderator when the toggle is on', async () => {
    const run = new DebateRun('run-3', 'user-1');
    await generateDebate(run, { ...settings, moderatorEnabled: true }, instant, { pauseMs: 0 });
    const turns = completed(run.history);
    expect(turns).toHaveLength(8);
    expect([turns[0]?.speaker, turns[0]?.roundTitle]).toEqual(['Moderator', 'Opening']);
    expect([turns[7]?.speaker, turns[7]?.roundTitle]).toEqual(['Moderator', 'Closing']);
  });

  it('is judged by the first judge of JUDGE_MODELS that did not speak in it', async () => {
    const fake = await startFakeOpenAi({ family: 'openai' });
    try {
      const models = new Models(
        [entryOn(fake, 'alpha'), entryOn(fake, 'beta')],
        {
          timeoutMs: 2_000,
          maxRetries: 0,
          idleTimeoutMs: 1_000,
          offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
          // The operator's order, not the catalogue's.
          judges: ['beta', 'alpha'],
        },
        quiet,
      );
      expect(models.judgeFor(['beta', 'offline']).ref.id).toBe('alpha');
      expect(models.judgeFor(['offline', 'offline']).ref.id).toBe('beta');
      // When every judge spoke, the first judges all the same.
      expect(models.judgeFor(['alpha', 'beta']).ref.id).toBe('beta');
      const run = new DebateRun('run-9', 'user-1');
      const onAlpha = { ...settings, first: { ...settings.first, model: 'alpha' } };
      expect(await generateDebate(run, onAlpha, models, { pauseMs: 0 })).toBe('completed');
      expect(run.verdict?.judgedBy).toMatchObject({ kind: 'model', modelId: 'beta', turns: 2 });
      expect(
        () =>
          new Models(
            [],
            {
              timeoutMs: 1,
              maxRetries: 0,
              idleTimeoutMs: 1,
              offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
              judges: ['gamma'],
            },
            quiet,
          ),
      ).toThrow('JUDGE_MODELS: gamma is not in the model catalogue');
    } finally {
      await fake.close();
    }
  });

  describe('with a model on an OpenAI-compatible server', () => {
    let fake: FakeOpenAi;
    beforeAll(async () => {
      fake = await startFakeOpenAi({ family: 'openai' });
    });
    afterAll(async () => {
      await fake?.close();
    });

    it('has each speaker written by its own model, every turn with what wrote it', async () => {
      fake.mode = { kind: 'stream' };
      const models = modelsWith([entryOn(fake, 'hosted')]);
      const run = new DebateRun('run-7', 'user-1');
      const mixed = {
        ...settings,
        moderatorEnabled: true,
        first: { ...settings.first, model: 'hosted' },
      };
      expect(await generateDebate(run, mixed, models, { pauseMs: 0 })).toBe('completed');
      expect(run.history[0]).toMatchObject({
        type: 'runStarted',
        firstModel: { id: 'hosted', label: 'HOSTED', kind: 'model' },
        secondModel: { id: 'offline', label: 'Offline speaker', kind: 'offline' },
      });
      const turns = completed(run.history);
      // The moderator speaks with the first speaker's model.
      expect(turns.map((turn) => [turn.speaker, turn.writtenBy.modelId])).toEqual([
        ['Moderator', 'hosted'],
        ['First Speaker', 'hosted'],
        ['Second Speaker', 'offline'],
        ['First Speaker', 'hosted'],
        ['Second Speaker', 'offline'],
        ['First Speaker', 'hosted'],
        ['Second Speaker', 'offline'],
        ['Moderator', 'hosted'],
      ]);
      const hosted = turns[1]?.writtenBy;
      expect(hosted).toMatchObject({
        kind: 'model',
        label: 'HOSTED',
        serverModel: 'provider-hosted-2024-08-06',
        tokensIn: expect.any(Number),
        tokensOut: expect.any(Number),
        firstTokenMs: expect.any(Number),
        turns: 1,
        failedTurns: 0,
      });
      expect(turns[2]?.writtenBy).toMatchObject({
        kind: 'offline',
        label: 'Offline speaker',
        serverModel: null,
        tokensIn: null,
        tokensOut: null,
      });
      // The run's tokens are its models' (the usage service is given them at the end).
      const sum = (key: 'tokensIn' | 'tokensOut') =>
        turns.reduce((total, turn) => total + (turn.writtenBy[key] ?? 0), 0);
      expect(run.tokens()).toEqual({ tokensIn: sum('tokensIn'), tokensOut: sum('tokensOut') });
      expect(run.tokens().tokensIn).toBeGreaterThan(0);
    });

    it("gives a failed turn the spec's texts and goes on; fails the run when nothing could be written", async () => {
      fake.mode = { kind: 'status', status: 500 };
      const models = modelsWith([entryOn(fake, 'down')]);
      const run = new DebateRun('run-4', 'user-1');
      const half = { ...settings, first: { ...settings.first, model: 'down' } };
      expect(await generateDebate(run, half, models, { pauseMs: 0 })).toBe('completed');
      const [failed, written] = completed(run.history);
      expect(failed).toMatchObject({
        failed: true,
        text: 'An error occurred while generating the argument.',
        summary: 'Error generating response.',
        writtenBy: { modelId: 'down', turns: 1, failedTurns: 1, tokensIn: null },
      });
      expect(written).toMatchObject({ failed: false, writtenBy: { modelId: 'offline' } });
      // Not judged: the judge would read the error text as the first speaker's argument.
      expect(run.history.map((event) => event.type)).not.toContain('judgingStarted');
      expect(run.verdict).toBeNull();

      const broken = new DebateRun('run-5', 'user-1');
      const both = { ...half, second: { ...settings.second, model: 'down' } };
      expect(await generateDebate(broken, both, models, { pauseMs: 0 })).toBe('failed');
      expect(broken.history.at(-1)).toMatchObject({
        type: 'runFailed',
        message: 'An error occurred during the debate. Please try again.',
      });
      // Three failed turns in a row: the model is reported degraded, and still offered.
      expect(models.catalog()).toContainEqual({
        id: 'down',
        label: 'DOWN',
        kind: 'model',
        status: 'degraded',
        speakerMode: 'single',
      });
      // ... and on /health/ready, which stays ready, and on /metrics with its failed turns.
      expect(currentDegradations()).toEqual({ models: ['down'] });
      expect(await metricValue('debate_model_degraded', { model: 'down' })).toBe(1);
      expect(
        await metricValue('debate_model_turns_failed_total', { model: 'down' }),
      ).toBeGreaterThanOrEqual(3);
      fake.mode = { kind: 'stream' };
      const again = new DebateRun('run-8', 'user-1');
      expect(await generateDebate(again, half, models, { pauseMs: 0 })).toBe('completed');
      expect(models.catalog().find((model) => model.id === 'down')?.status).toBe('ok');
      expect(currentDegradations()).toEqual({});
      expect(await metricValue('debate_model_degraded', { model: 'down' })).toBe(0);
      models.onApplicationShutdown();
    });
  });

  it('replays everything to a watcher who arrives mid-run, then the rest live', async () => {
    const slow = modelsWith([], { tokensPerSecond: 2000, firstTokenDelayMs: 0 });
    const run = new DebateRun('run-6', 'user-1');
    const generating = generateDebate(run, settings, slow, { pauseMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const late = firstValueFrom(run.watch().pipe(toArray()));
    await generating;
    const seen = await late;
    expect(seen[0]?.type).toBe('runStarted');
    expect(seen.at(-1)?.type).toBe('runCompleted');
    expect(completed(seen)).toEqual(completed(run.history));
    const seqs = seen.map((event) => event.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });
});

describe('stopping a run', () => {
  /** The offline speaker writing word by word, so that a run can be stopped mid-turn. */
  const paced = modelsWith([], { tokensPerSecond: 2000, firstTokenDelayMs: 0 });

  /** Runs the debate and stops it, from a watcher, at the first event `when` picks. */
  async function stopWhen(
    run: DebateRun,
    when: (event: RunEvent) => boolean,
    fields: Partial<DebateSettings> = {},
  ) {
    let stopped: boolean | undefined;
    run.watch().subscribe((event) => {
      if (stopped === undefined && when(event)) stopped = run.stop();
    });
    const outcome = await generateDebate(run, { ...settings, ...fields }, paced, { pauseMs: 0 });
    return { outcome, stopped };
  }

  it('cuts the turn being written where it is, keeps it, writes nothing more and is not judged', async () => {
    const run = new DebateRun('stop-1', 'user-1');
    let streamed = '';
    run.watch().subscribe((event) => {
      if (event.type === 'textDelta' && event.turn === 1) streamed += event.text;
    });
    // The second speaker's opening: stopped after its third piece.
    let pieces = 0;
    const { outcome, stopped } = await stopWhen(
      run,
      (event) => event.type === 'textDelta' && event.turn === 1 && ++pieces === 3,
    );
    expect([outcome, stopped]).toEqual(['stopped', true]);
    const turns = completed(run.history);
    expect(turns.map((turn) => [turn.speaker, turn.cutOff])).toEqual([
      ['First Speaker', false],
      ['Second Speaker', true],
    ]);
    const cut = turns[1];
    // What was written until then is its text; its summary says it was cut off.
    expect(cut?.text).toBe(streamed);
    expect(cut?.text.length).toBeGreaterThan(0);
    expect(cut).toMatchObject({
      failed: false,
      summary: 'Stopped before the end of this turn.',
      writtenBy: { modelId: 'offline', kind: 'offline', turns: 1, failedTurns: 0 },
    });
    const types = run.history.map((event) => event.type);
    expect(types.at(-1)).toBe('runStopped');
    expect(types).not.toContain('judgingStarted');
    expect(types).not.toContain('runCompleted');
    // A speaker's turn was complete: it used the free debate, and can be saved.
    expect(run.history.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
    expect([run.stopped, run.completed, run.saveable, run.verdict]).toEqual([
      true,
      false,
      true,
      null,
    ]);
  });

  it("uses the free debate once a speaker's model has written, though a cut-off turn is not saveable", async () => {
    const run = new DebateRun('stop-2', 'user-1');
    // The moderator's opening is written whole, the first speaker's cut off.
    const { outcome } = await stopWhen(
      run,
      (event) => event.type === 'textDelta' && event.turn === 1,
      { moderatorEnabled: true },
    );
    expect(outcome).toBe('stopped');
    expect(completed(run.history).map((turn) => [turn.speaker, turn.cutOff])).toEqual([
      ['Moderator', false],
      ['First Speaker', true],
    ]);
    expect(run.history.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
    expect([run.costsFreeDebate, run.saveable]).toEqual([true, false]);
  });

  it('gives the free debate back when no speaker had written a word', async () => {
    const run = new DebateRun('stop-2b', 'user-1');
    // The moderator's opening is written whole; the first speaker has not begun.
    const { outcome } = await stopWhen(
      run,
      (event) => event.type === 'turnStarted' && event.turn === 1,
      { moderatorEnabled: true },
    );
    expect(outcome).toBe('stopped');
    expect(completed(run.history).map((turn) => turn.speaker)).toEqual(['Moderator']);
    expect(run.history.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: false });
    expect([run.costsFreeDebate, run.saveable]).toEqual([false, false]);
  });

  it('answers a second stop as not its own', async () => {
    const run = new DebateRun('stop-2c', 'user-1');
    let answers: boolean[] = [];
    run.watch().subscribe((event) => {
      if (event.type === 'turnStarted' && event.turn === 1) answers = [run.stop(), run.stop()];
    });
    await generateDebate(run, settings, paced, { pauseMs: 0 });
    expect(answers).toEqual([true, false]);
    expect(run.stopped).toBe(true);
  });

  it('keeps no turn that had not written a word', async () => {
    const run = new DebateRun('stop-3', 'user-1');
    const { outcome } = await stopWhen(
      run,
      (event) => event.type === 'turnStarted' && event.turn === 2,
    );
    expect(outcome).toBe('stopped');
    expect(completed(run.history).map((turn) => turn.turn)).toEqual([0, 1]);
    expect(run.history.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
  });

  it('is not judged when stopped while the judge reads it', async () => {
    const run = new DebateRun('stop-4', 'user-1');
    const { outcome } = await stopWhen(run, (event) => event.type === 'judgingStarted');
    expect(outcome).toBe('stopped');
    expect(completed(run.history)).toHaveLength(6);
    expect(run.history.map((event) => event.type)).not.toContain('verdictReady');
    expect(run.verdict).toBeNull();
    expect(run.history.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
  });

  it('changes nothing once the run has ended', async () => {
    const run = new DebateRun('stop-5', 'user-1');
    expect(await generateDebate(run, settings, instant, { pauseMs: 0 })).toBe('completed');
    const before = [...run.history];
    expect(run.stop()).toBe(false);
    expect(run.history).toEqual(before);
    expect([run.completed, run.stopped]).toEqual([true, false]);
    expect(await run.end).toMatchObject({ type: 'runCompleted' });
  });

  it('ends its watchers with runStopped', async () => {
    const run = new DebateRun('stop-6', 'user-1');
    const watched = firstValueFrom(run.watch().pipe(toArray()));
    await stopWhen(run, (event) => event.type === 'turnStarted' && event.turn === 1);
    expect((await watched).at(-1)?.type).toBe('runStopped');
    // A watcher arriving later gets the whole run, ending with it too.
    const late = await firstValueFrom(run.watch().pipe(toArray()));
    expect(late.at(-1)).toMatchObject({ type: 'runStopped', freeDebateUsed: true });
  });
});
