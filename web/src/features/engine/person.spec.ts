import { afterEach, describe, expect, it } from '@jest/globals';
import { PERSON_TURN_WORDS } from '@debate/contracts/constants';
import {
  draftKey,
  readTurnDraft,
  removeTurnDrafts,
  timedOutText,
  timeLeftText,
  wordCountText,
  withinLimits,
  writeTurnDraft,
} from './person';

/** `count` words of text, spaced as a person types them (newlines, double spaces). */
const words = (count: number) =>
  Array.from({ length: count }, (_, index) => `word${index}`).join(' \n  ');

afterEach(() => window.localStorage.clear());

describe('the editor’s count and limits', () => {
  const { min, max } = PERSON_TURN_WORDS[1];

  it('counts words however they are spaced, against the round’s limits', () => {
    expect(wordCountText('', min, max)).toBe('0 words (40 to 400)');
    expect(wordCountText('  one  ', min, max)).toBe('1 word (40 to 400)');
    expect(wordCountText(words(12), min, max)).toBe('12 words (40 to 400)');
  });

  it('lets a turn through only within the limits, both ends included', () => {
    expect(withinLimits(words(39), min, max)).toBe(false);
    expect(withinLimits(words(40), min, max)).toBe(true);
    expect(withinLimits(words(400), min, max)).toBe(true);
    expect(withinLimits(words(401), min, max)).toBe(false);
  });

  it('says the time left in minutes and seconds, never below nothing', () => {
    expect(timeLeftText(15 * 60_000, 0)).toBe('15:00 left');
    expect(timeLeftText(65_500, 0)).toBe('1:06 left');
    expect(timeLeftText(0, 5_000)).toBe('0:00 left');
  });

  it('says how long a debate waited, from the run’s own wait', () => {
    expect(timedOutText(15 * 60_000)).toBe(
      'This debate waited 15 minutes for your turn and ended. What was written is kept.',
    );
    expect(timedOutText(60_000)).toBe(
      'This debate waited 1 minute for your turn and ended. What was written is kept.',
    );
  });
});

describe('the draft of a turn', () => {
  it('is kept per run and turn, read back, and forgotten with its run only', () => {
    writeTurnDraft('run-1', 2, 'Half a thought');
    writeTurnDraft('run-2', 0, 'Another debate');
    expect(window.localStorage.getItem('debate-draft:run-1:2')).toBe('Half a thought');
    expect(draftKey('run-1', 2)).toBe('debate-draft:run-1:2');
    expect(readTurnDraft('run-1', 2)).toBe('Half a thought');
    expect(readTurnDraft('run-1', 4)).toBe('');
    removeTurnDrafts('run-1');
    expect(readTurnDraft('run-1', 2)).toBe('');
    expect(readTurnDraft('run-2', 0)).toBe('Another debate');
  });
});
