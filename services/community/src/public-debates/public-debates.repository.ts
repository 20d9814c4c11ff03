import type {
  Debate,
  PublicDebate,
  RankedDebate,
  RankingPeriod,
  RankingSort,
  VoteCounts,
  VoteKind,
} from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Connection, type Model, Schema } from 'mongoose';
import {
  decodeRankCursor,
  encodeRankCursor,
  periodStart,
  scoreField,
  scoresOf,
} from '../ranking/ranking.js';

/**
 * The community's copy of a shared debate. `votes` maps each voter to their vote (spec §3), so
 * that a vote and the counters it moves change in one atomic write of one document.
 * `removedAt` marks a copy taken back (a tombstone). `popularity` and `controversy` are the
 * ranking scores of the counters, kept with them.
 */
export interface PublicDebateDocument extends Omit<PublicDebate, 'id' | 'timestamp' | 'sharedAt'> {
  _id: string;
  timestamp: Date;
  sharedAt: Date;
  removedAt: Date | null;
  votes: Record<string, VoteKind>;
  popularity: number;
  controversy: number;
}

const speakerInfo = { name: String, stance: Number, rhetoricStyle: String };

const publicDebateSchema = new Schema<PublicDebateDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    userDisplayName: { type: String, required: true },
    topic: { type: String, required: true },
    categories: { type: [String], required: true },
    timestamp: { type: Date, required: true },
    sharedAt: { type: Date, required: true },
    removedAt: { type: Date, default: null },
    views: { type: Number, default: 0 },
    upvotes: { type: Number, default: 1 },
    downvotes: { type: Number, default: 0 },
    interesting: { type: Number, default: 0 },
    votes: { type: Schema.Types.Mixed, default: {} },
    popularity: { type: Number, default: 0 },
    controversy: { type: Number, default: 0 },
    isPublic: { type: Boolean, default: true },
    isPro: { type: Boolean, default: false },
    model1: speakerInfo,
    model2: speakerInfo,
    rounds: [{ _id: false, speaker: String, round: Number, text: String, summary: String }],
  },
  { versionKey: false, minimize: false },
);
// One index per sort (the ranking reads it in order, filtering as it goes), and one for the
// category filter.
publicDebateSchema.index({ sharedAt: -1, _id: -1 });
publicDebateSchema.index({ popularity: -1, sharedAt: -1, _id: -1 });
publicDebateSchema.index({ controversy: -1, sharedAt: -1, _id: -1 });
publicDebateSchema.index({ categories: 1, sharedAt: -1 });

/** The community side's name for a user who has none (spec §3 'Public debate'). */
export const ANONYMOUS = 'Anonymous';

/** The counter each vote kind moves. */
const counterOf: Record<VoteKind, keyof VoteCounts> = {
  FOR: 'upvotes',
  AGAINST: 'downvotes',
  INTERESTING: 'interesting',
};

/** What a ranking card needs: everything but the rounds and the other voters' votes. */
const CARD_FIELDS = [
  'userDisplayName',
  'topic',
  'categories',
  'timestamp',
  'sharedAt',
  'views',
  'upvotes',
  'downvotes',
  'interesting',
  'isPro',
  'model1',
  'model2',
] as const;

type CardDocument = Pick<PublicDebateDocument, '_id' | (typeof CARD_FIELDS)[number]> & {
  popularity?: number;
  controversy?: number;
  votes?: Record<string, VoteKind>;
};

function countsOf(document: VoteCounts): VoteCounts {
  return {
    upvotes: document.upvotes,
    downvotes: document.downvotes,
    interesting: document.interesting,
  };
}

/** The fields a ranking card and a full public debate share, as the contracts write them. */
function cardOf(document: CardDocument): Omit<RankedDebate, 'myVote' | 'starred'> {
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
    isPro: document.isPro,
    model1: document.model1,
    model2: document.model2,
  };
}

export function toPublicDebate(document: PublicDebateDocument): PublicDebate {
  return { ...cardOf(document), userId: document.userId, rounds: document.rounds };
}

export interface RankQuery {
  readonly viewerId?: string | undefined;
  readonly category?: string | undefined;
  readonly sort: RankingSort;
  readonly period: RankingPeriod;
  readonly utcOffsetMinutes: number;
  /** Only these debates (the viewer's stars); undefined: all. */
  readonly onlyIds?: readonly string[] | undefined;
  /** Which of these ids (the page's) the viewer starred. */
  readonly starredAmong: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
  readonly after?: string | undefined;
  readonly limit: number;
  readonly now: Date;
}

export type VoteResult =
  { found: true; counts: VoteCounts; myVote: VoteKind | null } | { found: false };

/** public_debates: kept in step with the debates service's shared/unshared events. */
@Injectable()
export class PublicDebatesRepository implements OnApplicationBootstrap {
  private readonly debates: Model<PublicDebateDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = connection.model<PublicDebateDocument>(
      'PublicDebate',
      publicDebateSchema,
      'public_debates',
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.debates.init();
  }

  /**
   * Publishes (or refreshes) the copy of a shared debate. A new copy starts with the author's
   * own For vote (upvotes 1, recorded in votes), no downvotes, no views. Idempotent; and an
   * event older than a later unshare of the same debate changes nothing (events may arrive out
   * of order).
   */
  async applyShared(debate: Debate): Promise<void> {
    if (!debate.sharedAt) return;
    const sharedAt = new Date(debate.sharedAt);
    const content = {
      userId: debate.userId,
      userDisplayName: debate.userDisplayName.trim() || ANONYMOUS,
      topic: debate.topic,
      categories: debate.categories,
      timestamp: new Date(debate.timestamp),
      isPro: debate.isPro,
      model1: debate.model1,
      model2: debate.model2,
      rounds: debate.rounds,
      isPublic: true,
    };
    try {
      await this.debates
        .updateOne(
          {
            _id: debate.id,
            $or: [{ removedAt: null }, { removedAt: { $lt: sharedAt } }],
          },
          {
            $set: { ...content, sharedAt, removedAt: null },
            $setOnInsert: {
              upvotes: 1,
              downvotes: 0,
              interesting: 0,
              views: 0,
              votes: { [debate.userId]: 'FOR' },
              ...scoresOf(1, 0),
            },
          },
          { upsert: true },
        )
        .exec();
    } catch (error) {
      // The filter missed an existing copy removed later than this share: nothing to do.
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }

  /** Takes the copy down (a tombstone, so a late share event cannot bring it back). */
  async applyUnshared(debateId: string, at: Date): Promise<void> {
    await this.debates
      .updateOne(
        { _id: debateId, sharedAt: { $lte: at } },
        { $set: { removedAt: at, isPublic: false } },
      )
      .exec();
  }

  /** One public debate; `countView` adds the reader's view in the same write. */
  async findPublic(debateId: string, countView: boolean): Promise<PublicDebateDocument | null> {
    const filter = { _id: debateId, removedAt: null };
    const projection = { votes: 0 };
    if (!countView) {
      return this.debates.findOne(filter, projection).lean<PublicDebateDocument>().exec();
    }
    return this.debates
      .findOneAndUpdate(filter, { $inc: { views: 1 } }, { returnDocument: 'after', projection })
      .lean<PublicDebateDocument>()
      .exec();
  }

  /** Which of `ids` are public debates now. */
  async existing(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = await this.debates
      .find({ _id: { $in: ids }, removedAt: null }, { _id: 1 })
      .lean<Array<{ _id: string }>>()
      .exec();
    return found.map((document) => document._id);
  }

  /**
   * A page of the ranking: filtered, sorted and cut in the database, read along the sort's index.
   * Each card carries the viewer's own vote (read from the votes map, for that viewer only).
   */
  async rank(query: RankQuery): Promise<{ debates: RankedDebate[]; next: string | null }> {
    const score = scoreField[query.sort];
    const filter: Record<string, unknown> = { removedAt: null };
    if (query.category) filter['categories'] = query.category;
    if (query.onlyIds) filter['_id'] = { $in: query.onlyIds };
    const since = periodStart(query.period, query.now, query.utcOffsetMinutes);
    if (since) filter['sharedAt'] = { $gte: since };
    const cursor = query.after ? decodeRankCursor(query.after, query.sort) : undefined;
    if (query.after && !cursor) throw new InvalidCursorError();
    if (cursor) {
      const later = [
        { sharedAt: { $lt: cursor.sharedAt } },
        { sharedAt: cursor.sharedAt, _id: { $lt: cursor.id } },
      ];
      filter['$or'] = score
        ? [
            { [score]: { $lt: cursor.score } },
            ...later.map((condition) => ({ [score]: cursor.score, ...condition })),
          ]
        : later;
    }
    const sort: Record<string, -1> = score
      ? { [score]: -1, sharedAt: -1, _id: -1 }
      : { sharedAt: -1, _id: -1 };
    const projection: Record<string, 1> = Object.fromEntries(
      CARD_FIELDS.map((field) => [field, 1]),
    );
    if (score) projection[score] = 1;
    if (query.viewerId) projection[`votes.${query.viewerId}`] = 1;
    const found = await this.debates
      .find(filter, projection)
      .sort(sort)
      .limit(query.limit + 1)
      .lean<CardDocument[]>()
      .exec();
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    const next =
      found.length > query.limit && last
        ? encodeRankCursor({
            sort: query.sort,
            score: score ? (last[score] ?? 0) : null,
            sharedAt: last.sharedAt,
            id: last._id,
          })
        : null;
    const starred = await query.starredAmong(page.map((document) => document._id));
    return {
      debates: page.map((document) => ({
        ...cardOf(document),
        myVote: (query.viewerId && document.votes?.[query.viewerId]) || null,
        starred: starred.has(document._id),
      })),
      next,
    };
  }

  /**
   * Sets (or, with null, removes) the voter's vote. The vote and the counters it moves change
   * in one conditional write of the debate's document: the write applies only if the voter's
   * vote is still the one it was read as, else it is read again and retried. So concurrent
   * votes never lose or double a count, and a crash leaves either both changed or neither.
   */
  async vote(voterId: string, debateId: string, kind: VoteKind | null): Promise<VoteResult> {
    const path = `votes.${voterId}`;
    for (;;) {
      const current = await this.debates
        .findOne(
          { _id: debateId, removedAt: null },
          { [path]: 1, upvotes: 1, downvotes: 1, interesting: 1 },
        )
        .lean<Pick<PublicDebateDocument, '_id' | 'votes' | keyof VoteCounts>>()
        .exec();
      if (!current) return { found: false };
      const previous = current.votes?.[voterId] ?? null;
      if (previous === kind) return { found: true, counts: countsOf(current), myVote: kind };
      const changed = await this.debates
        .findOneAndUpdate(
          { _id: debateId, removedAt: null, [path]: previous ?? { $exists: false } },
          {
            ...(kind ? { $set: { [path]: kind } } : { $unset: { [path]: 1 } }),
            $inc: {
              ...(previous ? { [counterOf[previous]]: -1 } : {}),
              ...(kind ? { [counterOf[kind]]: 1 } : {}),
            },
          },
          { returnDocument: 'after', projection: { upvotes: 1, downvotes: 1, interesting: 1 } },
        )
        .lean<VoteCounts & { _id: string }>()
        .exec();
      if (!changed) continue; // the vote changed (or the debate went) since it was read
      const counts = countsOf(changed);
      await this.rescore(debateId, counts);
      return { found: true, counts, myVote: kind };
    }
  }

  /**
   * Writes the scores of `counts` if the counters are still those: of concurrent votes, the
   * last one's write is the one that finds its counters, so the scores end matching the counts.
   */
  private async rescore(debateId: string, counts: VoteCounts): Promise<void> {
    await this.debates
      .updateOne(
        { _id: debateId, upvotes: counts.upvotes, downvotes: counts.downvotes },
        { $set: scoresOf(counts.upvotes, counts.downvotes) },
      )
      .exec();
  }
}

export class InvalidCursorError extends Error {
  constructor() {
    super('Invalid cursor: ask for the first page again');
    this.name = 'InvalidCursorError';
  }
}
