import type { VoteCounts, VoteKind } from '@debate/contracts';
import { isDuplicateKeyError, MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import type { RankCursor } from '../ranking/ranking.js';
import { type PublicDebateDocument, publicDebateModel } from '../schemas/public-debate.schema.js';

/** What a ranking card needs: everything but the rounds and the other voters' votes. */
const CARD_FIELDS = [
  'userId',
  'userDisplayName',
  'topic',
  'categories',
  'timestamp',
  'sharedAt',
  'views',
  'upvotes',
  'downvotes',
  'interesting',
  'model1',
  'model2',
  'verdict',
  'debateFormat',
  'moderatorEnabled',
  'rematchOf',
  'stopped',
  'minds',
  'rating',
] as const;

/** A ranking card as read: its fields, the sort's score, and the viewer's vote alone. */
export type PublicDebateCard = Pick<PublicDebateDocument, '_id' | (typeof CARD_FIELDS)[number]> & {
  popularity?: number;
  controversy?: number;
  votes?: Record<string, VoteKind>;
};

/** What a share writes: the content of the debate, and what a new copy starts with. */
export interface SharedCopy {
  readonly id: string;
  readonly sharedAt: Date;
  readonly content: Pick<
    PublicDebateDocument,
    | 'userId'
    | 'userDisplayName'
    | 'topic'
    | 'categories'
    | 'timestamp'
    | 'isPro'
    | 'model1'
    | 'model2'
    | 'rounds'
    | 'verdict'
    | 'debateFormat'
    | 'moderatorEnabled'
    | 'rematchOf'
    | 'stopped'
    | 'isPublic'
  >;
  readonly initial: Pick<
    PublicDebateDocument,
    keyof VoteCounts | 'views' | 'votes' | 'before' | 'minds' | 'popularity' | 'controversy'
  >;
}

export interface RankPageQuery {
  /** The stored score the page is sorted by first (then sharedAt, then id); none: sharedAt. */
  readonly score: 'popularity' | 'controversy' | undefined;
  readonly category?: string | undefined;
  /** Only these debates (the viewer's stars); undefined: all. */
  readonly onlyIds?: readonly string[] | undefined;
  /** Only debates shared since then; undefined: all. */
  readonly since?: Date | undefined;
  /** Only debates after this card in the sort's order. */
  readonly after?: RankCursor | undefined;
  /** Whose vote the cards carry. */
  readonly viewerId?: string | undefined;
  readonly limit: number;
}

/**
 * public_debates: the community's copies of the shared debates, as shared and ranked (their
 * votes: votes/votes.repository.ts).
 */
@Injectable()
export class PublicDebatesRepository implements OnApplicationBootstrap {
  private readonly debates: Model<PublicDebateDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = publicDebateModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.debates.init();
  }

  /**
   * Writes the copy of a shared debate, `initial` only if it is new. Idempotent; and a share
   * older than a later unshare of the same debate changes nothing (events may arrive out of
   * order).
   */
  async upsertShared({ id, sharedAt, content, initial }: SharedCopy): Promise<void> {
    try {
      await this.debates
        .updateOne(
          {
            _id: id,
            $or: [{ removedAt: null }, { removedAt: { $lt: sharedAt } }],
          },
          { $set: { ...content, sharedAt, removedAt: null }, $setOnInsert: initial },
          { upsert: true },
        )
        .exec();
    } catch (error) {
      // The filter missed an existing copy removed later than this share: nothing to do.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Takes the copy down (a tombstone, so a late share cannot bring it back). */
  async markRemoved(debateId: string, at: Date): Promise<void> {
    await this.debates
      .updateOne(
        { _id: debateId, sharedAt: { $lte: at } },
        { $set: { removedAt: at, isPublic: false } },
      )
      .exec();
  }

  /** One public debate without its votes; `countView` adds a view in the same write. */
  async findPublic(debateId: string, countView: boolean): Promise<PublicDebateDocument | null> {
    const filter = { _id: debateId, removedAt: null };
    const projection = { votes: 0, before: 0 };
    if (!countView) {
      return this.debates.findOne(filter, projection).lean<PublicDebateDocument>().exec();
    }
    return this.debates
      .findOneAndUpdate(filter, { $inc: { views: 1 } }, { returnDocument: 'after', projection })
      .lean<PublicDebateDocument>()
      .exec();
  }

  /**
   * The other public debate of a side-swapped pair: the one `debate` is the rematch of, or the
   * public rematch of `debate` (the earliest shared, should there be more than one).
   */
  findPair(
    debate: Pick<PublicDebateDocument, '_id' | 'rematchOf'>,
  ): Promise<PublicDebateCard | null> {
    const filter = debate.rematchOf
      ? { _id: debate.rematchOf, removedAt: null }
      : { rematchOf: debate._id, removedAt: null };
    return this.debates
      .findOne(filter, { sharedAt: 1, model1: 1, model2: 1, verdict: 1, rematchOf: 1 })
      .sort({ sharedAt: 1 })
      .lean<PublicDebateCard>()
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

  /** Cards of the ranking: filtered, sorted and cut in the database, read along the sort's index. */
  rankPage(query: RankPageQuery): Promise<PublicDebateCard[]> {
    const { score, after } = query;
    const filter: Record<string, unknown> = { removedAt: null };
    if (query.category) filter['categories'] = query.category;
    if (query.onlyIds) filter['_id'] = { $in: query.onlyIds };
    if (query.since) filter['sharedAt'] = { $gte: query.since };
    if (after) {
      const later = [
        { sharedAt: { $lt: after.sharedAt } },
        { sharedAt: after.sharedAt, _id: { $lt: after.id } },
      ];
      filter['$or'] = score
        ? [
            { [score]: { $lt: after.score } },
            ...later.map((condition) => ({ [score]: after.score, ...condition })),
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
    return this.debates
      .find(filter, projection)
      .sort(sort)
      .limit(query.limit)
      .lean<PublicDebateCard[]>()
      .exec();
  }
}
