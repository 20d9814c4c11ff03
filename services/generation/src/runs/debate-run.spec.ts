import { describe, expect, it } from '@jest/globals';
import { firstValueFrom, toArray } from 'rxjs';
import type { DebateSettings, RunEvent } from '@debate/contracts';
import { OfflineSpeaker } from '../speakers/offline.speaker.js';
import type { Speaker, SpeakerChunk } from '../speakers/speaker.js';
import { DebateRun, generateDebate } from './debate-run.js';

const settings: DebateSettings = {
  topic: 'Should homework be banned in primary schools?',
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: 'gpt-4', stance: -0.6, rhetoricStyle: 'casual', personality: 'a teacher' },
};

const instant = new OfflineSpeaker({ tokensPerSecond: 0, firstTokenDelayMs: 0 });

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
    expect(events.at(-1)?.type).toBe('runCompleted');
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

  it("gives a failed turn the spec's texts and goes on; fails the run when nothing could be written", async () => {
    let calls = 0;
    const flaky: Speaker = {
      kind: 'openai',
      async *speak(request, signal): AsyncIterable<SpeakerChunk> {
        calls += 1;
        if (calls === 2) throw new Error('provider down');
        yield* instant.speak(request, signal);
      },
    };
    const run = new DebateRun('run-4', 'user-1');
    expect(await generateDebate(run, settings, flaky, { pauseMs: 0 })).toBe('completed');
    expect(completed(run.history)[1]).toMatchObject({
      failed: true,
      text: 'An error occurred while generating the argument.',
      summary: 'Error generating response.',
    });

    const broken: Speaker = {
      kind: 'openai',
      // eslint-disable-next-line require-yield
      async *speak(): AsyncIterable<SpeakerChunk> {
        throw new Error('provider down');
      },
    };
    const failed = new DebateRun('run-5', 'user-1');
    expect(await generateDebate(failed, settings, broken, { pauseMs: 0 })).toBe('failed');
    expect(failed.history.at(-1)).toMatchObject({
      type: 'runFailed',
      message: 'An error occurred during the debate. Please try again.',
    });
  });

  it('replays everything to a watcher who arrives mid-run, then the rest live', async () => {
    const slow = new OfflineSpeaker({ tokensPerSecond: 2000, firstTokenDelayMs: 0 });
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
