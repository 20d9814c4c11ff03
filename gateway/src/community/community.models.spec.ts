import { describe, expect, it } from '@jest/globals';
import { mindsChangedModel } from './community.models.js';

describe(mindsChangedModel.name, () => {
  it("keeps each side's gain in readers, and has no undecided after reading", () => {
    expect(
      mindsChangedModel({
        readers: 5,
        shares: {
          before: { for: 40, against: 40, undecided: 20 },
          after: { for: 20, against: 80 },
          gain: { for: -20, against: 40 },
          gainedReaders: { for: -1, against: 2 },
          winner: 'AGAINST',
        },
      }),
    ).toEqual({
      readers: 5,
      shares: {
        before: { for: 40, against: 40, undecided: 20 },
        after: { for: 20, against: 80, undecided: null },
        gain: { for: -20, against: 40, undecided: null },
        gainedReaders: { for: -1, against: 2 },
        winner: 'AGAINST',
      },
    });
    expect(mindsChangedModel({ readers: 3, shares: null })).toEqual({ readers: 3, shares: null });
  });
});
