import {
  EXAMPLES_USER_ID,
  type PublicDebate,
  type RankedDebate,
  type VoteCounts,
} from '@debate/contracts';
import { mindsChangedOf } from '../minds/minds-changed.js';
import type { PublicDebateDocument } from '../schemas/public-debate.schema.js';
import type { PublicDebateCard } from './public-debates.repository.js';

export function countsOf(document: VoteCounts): VoteCounts {
  return {
    upvotes: document.upvotes,
    downvotes: document.downvotes,
    interesting: document.interesting,
  };
}

/** The fields a ranking card and a full public debate share, as the contracts write them. */
function cardOf(document: PublicDebateCard): Omit<RankedDebate, 'myVote' | 'starred'> {
  return {
    id: document._id,
    userDisplayName: document.userDisplayName,
    topic: document.topic,
    categories: document.categories,
    timestamp: document.timestamp.toISOString(),
    sharedAt: document.sharedAt.toISOString(),
    views: document.views,
    ...countsOf(document),
    isPublic: true,
    model1: document.model1,
    model2: document.model2,
    verdict: document.verdict ?? null,
    debateFormat: document.debateFormat ?? null,
    moderatorEnabled: document.moderatorEnabled ?? null,
    rematchOf: document.rematchOf ?? null,
    // Absent on a copy shared before Stop existed: not stopped.
    stopped: document.stopped ?? false,
    mindsChanged: mindsChangedOf(document.minds),
    example: document.userId === EXAMPLES_USER_ID,
    rating: document.rating ?? null,
  };
}

export function toPublicDebate(document: PublicDebateDocument): PublicDebate {
  return { ...cardOf(document), userId: document.userId, rounds: document.rounds };
}

/** A ranking card with the viewer's own vote (read from the votes map) and star. */
export function toRankedDebate(
  document: PublicDebateCard,
  viewerId: string | undefined,
  starred: boolean,
): RankedDebate {
  return {
    ...cardOf(document),
    myVote: (viewerId && document.votes?.[viewerId]) || null,
    starred,
  };
}
