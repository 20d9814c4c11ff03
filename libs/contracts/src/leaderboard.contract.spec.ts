import { describe, expect, it } from '@jest/globals';
import { LeaderboardRow, leaderboardContracts } from './leaderboard.contract.js';

describe('the People board contracts', () => {
  it("reads a row of the last version's stored boards, without a kind, as a model's", () => {
    const row = { id: 'gpt-4o', label: 'GPT-4o', rating: 1000, low: 990, high: 1010 };
    expect(LeaderboardRow.parse({ ...row, debates: 3, pairs: 0, audience: null }).kind).toBeNull();
    expect(
      LeaderboardRow.parse({ ...row, debates: 3, pairs: 0, audience: null, kind: 'PERSON' }).kind,
    ).toBe('PERSON');
  });

  const set = leaderboardContracts.setListing.request;

  it('lists a user under a trimmed name of at most 80 characters', () => {
    expect(set.parse({ userId: 'u1', listed: true, name: '  Ada  ' })).toEqual({
      userId: 'u1',
      listed: true,
      name: 'Ada',
    });
    expect(set.parse({ userId: 'u1', listed: true, name: 'a'.repeat(80) })).toMatchObject({
      name: 'a'.repeat(80),
    });
    expect(set.parse({ userId: 'u1', listed: false })).toEqual({ userId: 'u1', listed: false });
  });

  it.each([
    ['no name', undefined, 'Invalid input'],
    ['an empty name', ' \t ', 'Choose the name to be listed under.'],
    ['a name over 80 characters', 'a'.repeat(81), 'A name on the board has at most 80 characters.'],
    [
      'the People row’s name',
      ' people ',
      '"People" is the row of everyone pooled: choose another name.',
    ],
  ])('refuses to list a user under %s', (_case, name, message) => {
    const result = set.safeParse({ userId: 'u1', listed: true, name });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});
