import { z } from 'zod';
import { DebateCategory } from './catalog.contract.js';
import { defineRequest } from './contract.js';
import { Debate, DebateId } from './debates.contract.js';
import { MAX_LOCAL_STARS } from './constants/index.js';
import { subjects } from './subjects.js';

/**
 * A user id as the community keeps it: also the key of the user's vote in a debate's votes
 * map, so it may hold no dot and not start with '$' (realm ids are UUIDs).
 */
export const VoterId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^.$][^.]*$/, 'A user id may not contain a dot or start with $');

/** For (an upvote), Against (a downvote) or Interesting; one per user per debate. */
export const VoteKind = z.enum(['FOR', 'AGAINST', 'INTERESTING']);
export type VoteKind = z.output<typeof VoteKind>;

export const RankingSort = z.enum(['popular', 'recent', 'controversial']);
export type RankingSort = z.output<typeof RankingSort>;
export const RankingPeriod = z.enum(['all', 'today', 'week', 'month']);
export type RankingPeriod = z.output<typeof RankingPeriod>;

/** Where a reader stands before reading a debate (Intelligence Squared's first poll). */
export const StanceBefore = z.enum(['FOR', 'AGAINST', 'UNDECIDED']);
export type StanceBefore = z.output<typeof StanceBefore>;
/** A reader's answer before reading: a stance, or SKIPPED (skipped, or voted before answering). */
export const BeforeAnswer = z.enum([...StanceBefore.options, 'SKIPPED']);
export type BeforeAnswer = z.output<typeof BeforeAnswer>;
/** Where a reader stands after reading: their For or Against vote. */
export const StanceAfter = z.enum(['FOR', 'AGAINST']);
export type StanceAfter = z.output<typeof StanceAfter>;

const share = z.number().min(0).max(100);
const gain = z.number().min(-100).max(100);

/** A room's winner by minds changed: the side that gained more, or a tie. */
export const RoomWinner = z.enum(['FOR', 'AGAINST', 'TIE']);
export type RoomWinner = z.output<typeof RoomWinner>;

/**
 * Minds changed, among the readers who said where they stood before reading and voted For or
 * Against after: the shares before and after (percent), each side's gain in percentage points
 * and the room's winner by gain. `shares` is null below MINDS_CHANGED_MIN_READERS readers.
 */
export const MindsChanged = z
  .object({
    readers: z.number().int().nonnegative(),
    shares: z
      .object({
        before: z.object({ for: share, against: share, undecided: share }).strict(),
        after: z.object({ for: share, against: share }).strict(),
        gain: z.object({ for: gain, against: gain }).strict(),
        /** Each side's gain in readers: after less before ("For gained 4 minds"). */
        gainedReaders: z.object({ for: z.number().int(), against: z.number().int() }).strict(),
        /** The side that gained more points; TIE when they gained the same. */
        winner: RoomWinner,
      })
      .strict()
      .nullable(),
  })
  .strict();
export type MindsChanged = z.output<typeof MindsChanged>;

/**
 * Whether the leaderboard rates a public debate, or why not: it was not judged; it was saved
 * before what wrote it, or whether it had personality hints, was kept; a speaker had hints
 * (they can steer a debate, and a judge); its author shared more debates of the same pairing
 * that day than the leaderboard counts (the first ones shared count).
 */
export const DebateRating = z.enum([
  'RATED',
  'NOT_JUDGED',
  'NOT_RECORDED',
  'PERSONALITY_HINTS',
  'DAILY_LIMIT',
]);
export type DebateRating = z.output<typeof DebateRating>;

/** Not the spec's (it has no leaderboard): what a card and a debate's page say of its rating. */
export const debateRatingTexts: Record<DebateRating, string> = {
  RATED: 'Rated',
  NOT_JUDGED: 'Not rated: not judged',
  NOT_RECORDED: 'Not rated: saved before ratings',
  PERSONALITY_HINTS: 'Not rated: personality hints',
  DAILY_LIMIT: 'Not rated: over the daily limit for this pairing',
};

/** A debate as the community sees it: the shared debate with its votes, views and minds changed. */
export const PublicDebate = Debate.extend({
  isPublic: z.literal(true),
  sharedAt: z.iso.datetime(),
  interesting: z.number().int().nonnegative(),
  mindsChanged: MindsChanged,
  /** One of the examples the platform seeded (EXAMPLES_USER_ID's), not a person's debate. */
  // (Defaulted: a gateway of this version still reads a community service of the last one.)
  example: z.boolean().default(false),
  /** Whether the leaderboard rates it; null until the leaderboard has read it (just shared). */
  rating: DebateRating.nullable().default(null),
}).strict();
export type PublicDebate = z.output<typeof PublicDebate>;

/**
 * The other debate of a side-swapped pair, as the page shows it beside this one: the same
 * motion, each model on the other side. `isRematch`: it is the rematch (else the first).
 */
export const PairedDebate = PublicDebate.pick({
  id: true,
  sharedAt: true,
  model1: true,
  model2: true,
  verdict: true,
})
  .extend({ isRematch: z.boolean() })
  .strict();
export type PairedDebate = z.output<typeof PairedDebate>;

/** What a ranking card shows: no rounds (they are fetched on demand), the viewer's own marks. */
export const RankedDebate = PublicDebate.omit({ rounds: true, userId: true })
  .extend({
    myVote: VoteKind.nullable(),
    starred: z.boolean(),
  })
  .strict();
export type RankedDebate = z.output<typeof RankedDebate>;

export const VoteCounts = z
  .object({
    upvotes: z.number().int().nonnegative(),
    downvotes: z.number().int().nonnegative(),
    interesting: z.number().int().nonnegative(),
  })
  .strict();
export type VoteCounts = z.output<typeof VoteCounts>;

const debateIds = z.array(DebateId).max(MAX_LOCAL_STARS);

/**
 * A reader's marks on a public debate: their vote, where they stood before reading ('SKIPPED':
 * they did not say; null: not asked yet), and whether the page asks them first.
 */
export const ViewerMarks = z
  .object({
    myVote: VoteKind.nullable(),
    standBefore: BeforeAnswer.nullable(),
    askBefore: z.boolean(),
  })
  .strict();
export type ViewerMarks = z.output<typeof ViewerMarks>;

export const communityDebateContracts = {
  /**
   * One public debate with its rounds (null when it is not, or no longer, public); a reader's
   * fetch counts a view, once per reader (the signed-in one, else the address) and UTC day. A
   * counted fetch without a reader counts none: a gateway of the last version asks without one.
   */
  get: defineRequest(
    subjects.community.debate.get,
    z
      .object({
        debateId: DebateId,
        countView: z.boolean(),
        /** The signed-in reader, whose vote and answer before reading come with it. */
        viewerId: VoterId.optional(),
        /**
         * A signed-out reader's address (an IPv6 one's /64), whose view counts once a day: the
         * community keeps only a keyed hash of it.
         */
        readerAddress: z.string().min(1).max(64).optional(),
      })
      .strict(),
    z
      .object({
        debate: PublicDebate.nullable(),
        /** The reader's marks on it; null without a reader (or a debate). */
        viewer: ViewerMarks.nullable(),
        /** The other debate of its side-swapped pair, when that one is public too. */
        pair: PairedDebate.nullable(),
      })
      .strict(),
  ),
  /** The ranking screen's query: filtered, sorted and paged in the database. */
  rank: defineRequest(
    subjects.community.debate.rank,
    z
      .object({
        /** The signed-in viewer, whose votes and stars the cards show. */
        viewerId: VoterId.optional(),
        category: DebateCategory.optional(),
        sort: RankingSort,
        period: RankingPeriod,
        /** The viewer's offset from UTC in minutes (east positive): where 'today' starts. */
        utcOffsetMinutes: z.number().int().min(-840).max(840),
        starredOnly: z.boolean(),
        /** A signed-out visitor's stars, kept in their browser. */
        starredIds: debateIds.optional(),
        after: z.string().max(300).optional(),
        limit: z.number().int().min(1).max(50),
      })
      .strict(),
    z.union([
      z.object({ debates: z.array(RankedDebate), next: z.string().nullable() }).strict(),
      z.object({ invalid: z.literal('cursor'), message: z.string() }).strict(),
    ]),
  ),
  /** Casts, changes (another kind) or removes (null) the voter's vote on a public debate. */
  vote: defineRequest(
    subjects.community.vote.cast,
    z.object({ voterId: VoterId, debateId: DebateId, kind: VoteKind.nullable() }).strict(),
    z.union([
      z
        .object({
          found: z.literal(true),
          counts: VoteCounts,
          myVote: VoteKind.nullable(),
          mindsChanged: MindsChanged,
        })
        .strict(),
      z.object({ found: z.literal(false) }).strict(),
    ]),
  ),
  /**
   * Records where the reader stood before reading (null: they skipped the question), once: not
   * after an answer (or a skip), not after a vote, not by the debate's author.
   */
  standBefore: defineRequest(
    subjects.community.minds.before,
    z.object({ readerId: VoterId, debateId: DebateId, stance: StanceBefore.nullable() }).strict(),
    z.union([
      z
        .object({ found: z.literal(true), viewer: ViewerMarks, mindsChanged: MindsChanged })
        .strict(),
      z.object({ found: z.literal(false) }).strict(),
      z
        .object({
          refused: z.enum(['answered', 'voted', 'author']),
          message: z.string(),
        })
        .strict(),
    ]),
  ),
  /**
   * Stars a public debate for the user, or takes the star away: to `starred` when it is given
   * (the same answer however often it is sent: a retry after a lost answer changes nothing),
   * else the other way round.
   */
  toggleStar: defineRequest(
    subjects.community.star.toggle,
    z.object({ userId: VoterId, debateId: DebateId, starred: z.boolean().optional() }).strict(),
    z.union([
      z.object({ found: z.literal(true), starred: z.boolean() }).strict(),
      z.object({ found: z.literal(false) }).strict(),
    ]),
  ),
  /** Adds the given stars (a visitor's local ones) to the user's; answers all the user's stars. */
  mergeStars: defineRequest(
    subjects.community.star.merge,
    z.object({ userId: VoterId, debateIds }).strict(),
    z.object({ debateIds: z.array(DebateId) }).strict(),
  ),
} as const;
