import { describe, expect, it } from '@jest/globals';
import { OFFLINE_JUDGE_ID } from '@debate/contracts';
import { startFakeOpenAi } from '@debate/testing';
import type { JudgedTurn } from '../judging/judge.js';
import type { ConfiguredModel } from './model-catalog.js';
import { Models } from './models.js';

const quiet = { log: () => undefined, warn: () => undefined };

/** A catalogue entry on a server nobody asks: choosing judges sends nothing. */
function entry(id: string): ConfiguredModel {
  return {
    id,
    label: id.toUpperCase(),
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-test',
    providerModel: `provider-${id}`,
    structuredOutput: 'tool_call',
    speakerMode: 'single',
    maxTokens: 500,
    maxConcurrentTurns: 4,
  };
}

function modelsJudgedBy(judges: readonly string[], panelSize?: number): Models {
  return new Models(
    ['alpha', 'beta', 'gamma', 'delta'].map(entry),
    {
      timeoutMs: 1_000,
      maxRetries: 0,
      idleTimeoutMs: 1_000,
      offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
      judges,
      ...(panelSize === undefined ? {} : { panelSize }),
    },
    quiet,
  );
}

/** The judges that read a debate its speakers' models wrote: the scorecard's first. */
function judgesOf(models: Models, spokeBy: readonly string[], example = false): string[] {
  const judge = models.judgeFor(spokeBy, example);
  return [judge, ...models.panelFor(judge, example)].map((each) => each.ref.id);
}

describe("a debate's judges", () => {
  it("seat the scorecard's judge, then the next in JUDGE_MODELS' order, a judge that spoke included", () => {
    const models = modelsJudgedBy(['gamma', 'alpha', 'beta'], 3);
    // gamma spoke: alpha keeps the scorecard, and gamma still reads it on the panel.
    expect(judgesOf(models, ['gamma', 'delta'])).toEqual(['alpha', 'gamma', 'beta']);
    expect(judgesOf(models, ['delta', 'delta'])).toEqual(['gamma', 'alpha', 'beta']);
    expect(judgesOf(models, ['gamma', 'alpha'])).toEqual(['beta', 'gamma', 'alpha']);
    // Every judge spoke: the first keeps the scorecard, as with one judge.
    expect(judgesOf(modelsJudgedBy(['gamma', 'alpha'], 3), ['alpha', 'gamma'])).toEqual([
      'gamma',
      'alpha',
    ]);
  });

  it('are as many as JUDGE_PANEL_SIZE says, or as are named', () => {
    expect(judgesOf(modelsJudgedBy(['gamma', 'alpha', 'beta']), ['gamma'])).toEqual(['alpha']);
    expect(judgesOf(modelsJudgedBy(['gamma', 'alpha', 'beta'], 1), ['gamma'])).toEqual(['alpha']);
    expect(judgesOf(modelsJudgedBy(['gamma', 'alpha', 'beta'], 2), ['gamma'])).toEqual([
      'alpha',
      'gamma',
    ]);
    expect(judgesOf(modelsJudgedBy(['gamma', 'alpha'], 3), ['delta'])).toEqual(['gamma', 'alpha']);
    // A judge named twice sits once; a panel is never bigger than MAX_JUDGE_PANEL.
    expect(judgesOf(modelsJudgedBy(['alpha', 'alpha', 'beta'], 3), [])).toEqual(['alpha', 'beta']);
    expect(judgesOf(modelsJudgedBy(['alpha', 'beta', 'gamma', 'delta'], 4), [])).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
    // None named: the offline judge alone.
    expect(judgesOf(modelsJudgedBy([], 3), ['alpha'])).toEqual([OFFLINE_JUDGE_ID]);
  });

  it('may include the offline judge, named in JUDGE_MODELS', () => {
    const models = modelsJudgedBy([OFFLINE_JUDGE_ID, 'alpha', 'beta'], 3);
    expect(judgesOf(models, ['delta', 'gamma'])).toEqual([OFFLINE_JUDGE_ID, 'alpha', 'beta']);
    // The offline speaker spoke: the offline judge gives way for the scorecard, not the panel.
    expect(judgesOf(models, ['offline', 'delta'])).toEqual(['alpha', OFFLINE_JUDGE_ID, 'beta']);
    expect(models.panelFor(models.judgeFor(['offline']))[0]?.ref).toEqual({
      id: OFFLINE_JUDGE_ID,
      label: 'Offline judge',
      kind: 'offline',
    });
  });

  it('are the offline judge alone for an example debate', () => {
    const models = modelsJudgedBy(['alpha', 'beta', 'gamma'], 3);
    expect(judgesOf(models, ['offline', 'offline'], true)).toEqual([OFFLINE_JUDGE_ID]);
  });

  it('are refused at start when one is neither in the catalogue nor the offline judge', () => {
    expect(() => modelsJudgedBy(['alpha', 'omega', OFFLINE_JUDGE_ID], 3)).toThrow(
      'JUDGE_MODELS: omega is not in the model catalogue',
    );
  });
});

describe("a panel's verdict", () => {
  const turns: JudgedTurn[] = [1, 2, 3].flatMap((round) => [
    {
      speaker: 'First Speaker' as const,
      round,
      roundTitle: `Round ${round}`,
      text: 'Yes, because.',
    },
    { speaker: 'Second Speaker' as const, round, roundTitle: `Round ${round}`, text: 'No.' },
  ]);

  it("is none when the scorecard's judge fails, whatever the panel said", async () => {
    const fake = await startFakeOpenAi({ family: 'openai' });
    fake.mode = { kind: 'status', status: 500 };
    const warnings: string[] = [];
    try {
      const models = new Models(
        [{ ...entry('alpha'), baseUrl: fake.baseUrl }],
        {
          timeoutMs: 2_000,
          maxRetries: 0,
          idleTimeoutMs: 1_000,
          offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
          judges: ['alpha', OFFLINE_JUDGE_ID],
          panelSize: 2,
        },
        { log: () => undefined, warn: (line: string) => warnings.push(line) },
      );
      const judge = models.judgeFor(['offline']);
      const panel = models.panelFor(judge);
      expect([judge, ...panel].map((each) => each.ref.id)).toEqual(['alpha', OFFLINE_JUDGE_ID]);
      const signal = new AbortController().signal;
      expect(await models.verdict(judge, panel, 'Should it?', turns, signal)).toBeNull();
      expect(warnings).toEqual([expect.stringMatching(/^Judge alpha could not score a debate: /)]);
    } finally {
      await fake.close();
    }
  });
});
