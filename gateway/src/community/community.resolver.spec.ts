import { type RankedDebate, subjects } from '@debate/contracts';
import { type MessageSender, ServiceClient } from '@debate/nest';
import { debateOf } from '@debate/testing';
import { describe, expect, it } from '@jest/globals';
import { of } from 'rxjs';
import { CommunityResolver } from './community.resolver.js';

/** A ranking card as the community service answers it, rated as `rating` says. */
function card(id: string, rating: RankedDebate['rating']): RankedDebate {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { rounds, userId, ...debate } = debateOf(id);
  return {
    ...debate,
    sharedAt: debate.sharedAt ?? new Date().toISOString(),
    isPublic: true,
    interesting: 0,
    mindsChanged: { readers: 0, shares: null },
    example: false,
    rating,
    myVote: null,
    starred: false,
  };
}

/** The community service's side of the wire: answers `page` to a ranking request. */
function communityAnswering(page: { debates: RankedDebate[]; next: string | null }) {
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      expect(subject).toBe(subjects.community.debate.rank);
      expect(payload).toMatchObject({ sort: 'recent' });
      return of(page as TResult);
    },
  };
  return new ServiceClient(sender);
}

describe(CommunityResolver.name, () => {
  it('says on each card whether the leaderboard rates it, or why not, in the words the card shows', async () => {
    const sut = new CommunityResolver(
      communityAnswering({
        debates: [
          card('rated', 'RATED'),
          card('hinted', 'PERSONALITY_HINTS'),
          card('farmed', 'DAILY_LIMIT'),
          card('just-shared', null),
        ],
        next: null,
      }),
    );
    const page = await sut.communityDebates(null);
    expect(page.debates.map((debate) => [debate.id, debate.rating])).toEqual([
      ['rated', { status: 'RATED', text: 'Rated' }],
      ['hinted', { status: 'PERSONALITY_HINTS', text: 'Not rated: personality hints' }],
      [
        'farmed',
        { status: 'DAILY_LIMIT', text: 'Not rated: over the daily limit for this pairing' },
      ],
      // Not read by the leaderboard yet: nothing to say.
      ['just-shared', null],
    ]);
  });
});
