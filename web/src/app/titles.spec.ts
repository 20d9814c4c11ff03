import { describe, expect, it } from '@jest/globals';
import { titleFor } from './titles';

describe(titleFor.name, () => {
  it('names each page, a missing one too, and leaves a debate its topic', () => {
    expect(titleFor('/community/leaderboard')).toBe('Leaderboard - AI Debate');
    expect(titleFor('/community/judges')).toBe('Judges - AI Debate');
    expect(titleFor('/engine')).toBe('AI Debate Engine - AI Debate');
    expect(titleFor('/no-such-page')).toBe('Page not found - AI Debate');
    expect(titleFor('/community/debate/abc')).toBeNull();
    // Redirects get the title of where they land.
    expect(titleFor('/')).toBeNull();
    expect(titleFor('/community/elsewhere')).toBeNull();
  });
});
