import {
  type communityDebateContracts,
  type ParsedRequestOf,
  type ResponseOf,
  StanceAfter,
  type ViewerMarks,
  type VoteCounts,
  type VoteKind,
} from '@debate/contracts';
import { Injectable } from '@nestjs/common';
import { LeaderboardService } from '../leaderboard/leaderboard.service.js';
import { mindsChangedOf } from '../minds/minds-changed.js';
import { countsOf } from '../public-debates/public-debates.mapper.js';
import { scoresOf } from '../ranking/ranking.js';
import { type MindsMoves, type ReaderState, VotesRepository } from './votes.repository.js';

type Contracts = typeof communityDebateContracts;

/** The counter each vote kind moves. */
const counterOf: Record<VoteKind, keyof VoteCounts> = {
  FOR: 'upvotes',
  AGAINST: 'downvotes',
  INTERESTING: 'interesting',
};

/** Why a reader is not asked where they stood before reading, in words. */
const BEFORE_REFUSED = {
  answered: 'Where you stood before reading this debate is already recorded, or was skipped.',
  voted: 'You have voted on this debate: where you stood before reading it can no longer be asked.',
  author: 'You wrote this debate: the question is for its readers.',
} as const;

/** A vote that says where its voter stands after reading: For or Against. */
const stanceAfter = (kind: VoteKind | null): StanceAfter | null =>
  StanceAfter.safeParse(kind).data ?? null;

/** A reader's marks on a debate: asked first only with no answer, no vote, and not the author. */
function marksOf(state: ReaderState, readerId: string): ViewerMarks {
  const myVote = state.votes?.[readerId] ?? null;
  const standBefore = state.before?.[readerId] ?? null;
  return {
    myVote,
    standBefore,
    askBefore: standBefore === null && myVote === null && state.userId !== readerId,
  };
}

/** The minds-changed cells a vote moves: its voter's before × their old and new stance after. */
function mindsMoves(
  before: string | null,
  previous: StanceAfter | null,
  next: StanceAfter | null,
): MindsMoves {
  if (!before || before === 'SKIPPED' || previous === next) return {};
  return {
    ...(previous ? { [`minds.${before}.${previous}`]: -1 } : {}),
    ...(next ? { [`minds.${before}.${next}`]: 1 } : {}),
  };
}

/**
 * The community's rules for the votes on public debates: how a vote moves the counters, the
 * scores and the minds changed, and when a reader is asked where they stood before reading.
 */
@Injectable()
export class VotesService {
  constructor(
    private readonly votes: VotesRepository,
    private readonly leaderboard: LeaderboardService,
  ) {}

  /** The reader's vote and answer before reading on a public debate; null when it is not public. */
  async marksOn(debateId: string, readerId: string): Promise<ViewerMarks | null> {
    const reader = await this.votes.findReader(debateId, readerId);
    return reader ? marksOf(reader, readerId) : null;
  }

  /**
   * Records where a reader stood before reading (null: skipped), once, in one conditional write
   * of the debate's document: refused after an answer or a skip, after a vote (their mind is
   * already shown), and for the author.
   */
  async standBefore({
    readerId,
    debateId,
    stance,
  }: ParsedRequestOf<Contracts['standBefore']>): Promise<ResponseOf<Contracts['standBefore']>> {
    const written = await this.votes.recordBefore(debateId, readerId, stance ?? 'SKIPPED');
    if (written) {
      return {
        found: true,
        viewer: marksOf(written, readerId),
        mindsChanged: mindsChangedOf(written.minds),
      };
    }
    const current = await this.votes.findReader(debateId, readerId);
    if (!current) return { found: false };
    const refused =
      current.userId === readerId ? 'author' : current.votes?.[readerId] ? 'voted' : 'answered';
    return { refused, message: BEFORE_REFUSED[refused] };
  }

  /**
   * Sets (or, with null, removes) the voter's vote. The vote and the counters it moves change
   * in one conditional write of the debate's document: the write applies only if the voter's
   * vote is still the one it was read as, else it is read again and retried. So concurrent
   * votes never lose or double a count, and a crash leaves either both changed or neither.
   * A For or Against vote of a reader who said where they stood before reading is where they
   * stand after it: the same write moves their cell of the minds changed.
   */
  async vote({
    voterId,
    debateId,
    kind,
  }: ParsedRequestOf<Contracts['vote']>): Promise<ResponseOf<Contracts['vote']>> {
    for (;;) {
      const current = await this.votes.findVote(debateId, voterId);
      if (!current) return { found: false };
      const previous = current.votes?.[voterId] ?? null;
      if (previous === kind) {
        return {
          found: true,
          counts: countsOf(current),
          myVote: kind,
          mindsChanged: mindsChangedOf(current.minds),
        };
      }
      const before = current.before?.[voterId] ?? null;
      const minds = mindsMoves(before, stanceAfter(previous), stanceAfter(kind));
      const changed = await this.votes.replaceVote(debateId, voterId, previous, kind, before, {
        ...(previous ? { [counterOf[previous]]: -1 } : {}),
        ...(kind ? { [counterOf[kind]]: 1 } : {}),
        ...minds,
      });
      if (!changed) continue; // the vote changed (or the debate went) since it was read
      // A room's winner may have changed (the leaderboard's audience column), or the side the
      // For/Against votes favour (the judges' record): recomputed, coalesced, in the background.
      if (Object.keys(minds).length > 0 || stanceAfter(previous) !== stanceAfter(kind)) {
        void this.leaderboard.changed();
      }
      const counts = countsOf(changed);
      // Of concurrent votes, the last one's write is the one that finds its counters, so the
      // scores end matching the counts.
      await this.votes.writeScores(debateId, counts, scoresOf(counts.upvotes, counts.downvotes));
      return { found: true, counts, myVote: kind, mindsChanged: mindsChangedOf(changed.minds) };
    }
  }
}
