import { describe, expect, it } from '@jest/globals';
import { countsAfterVote } from './votes';

describe(countsAfterVote.name, () => {
  const counts = { upvotes: 3, downvotes: 1, interesting: 0 };

  it('adds a first vote to its kind', () => {
    expect(countsAfterVote(counts, null, 'INTERESTING')).toEqual({
      upvotes: 3,
      downvotes: 1,
      interesting: 1,
    });
  });

  it('moves a changed vote from its old kind to its new one', () => {
    expect(countsAfterVote(counts, 'FOR', 'AGAINST')).toEqual({
      upvotes: 2,
      downvotes: 2,
      interesting: 0,
    });
  });

  it('takes a withdrawn vote away, never below zero', () => {
    expect(countsAfterVote(counts, 'AGAINST', null)).toEqual({
      upvotes: 3,
      downvotes: 0,
      interesting: 0,
    });
    expect(countsAfterVote(counts, 'INTERESTING', null).interesting).toBe(0);
  });
});
