import { describe, expect, it } from '@jest/globals';
import { voteShares } from './DebateCard';

describe(voteShares.name, () => {
  it('gives each vote kind its rounded share of all votes', () => {
    expect(voteShares({ upvotes: 1, downvotes: 1, interesting: 1 })).toEqual({
      FOR: 33,
      INTERESTING: 33,
      AGAINST: 33,
    });
    expect(voteShares({ upvotes: 2, downvotes: 1, interesting: 0 })).toEqual({
      FOR: 67,
      INTERESTING: 0,
      AGAINST: 33,
    });
  });

  it('shows nothing but zeros before anyone votes', () => {
    expect(voteShares({ upvotes: 0, downvotes: 0, interesting: 0 })).toEqual({
      FOR: 0,
      INTERESTING: 0,
      AGAINST: 0,
    });
  });
});
