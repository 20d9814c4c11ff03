import type { Debate, PublicDebate } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Connection, type Model, Schema } from 'mongoose';

/** The community's copy of a shared debate; `removedAt` marks one taken back (a tombstone). */
export interface PublicDebateDocument extends Omit<PublicDebate, 'id' | 'timestamp' | 'sharedAt'> {
  _id: string;
  timestamp: Date;
  sharedAt: Date;
  removedAt: Date | null;
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
    isPublic: { type: Boolean, default: true },
    isPro: { type: Boolean, default: false },
    model1: speakerInfo,
    model2: speakerInfo,
    rounds: [{ _id: false, speaker: String, round: Number, text: String, summary: String }],
  },
  { versionKey: false },
);
publicDebateSchema.index({ removedAt: 1, sharedAt: -1 });

/** The community side's name for a user who has none (spec §3 'Public debate'). */
export const ANONYMOUS = 'Anonymous';

export function toPublicDebate(document: PublicDebateDocument): PublicDebate {
  return {
    id: document._id,
    userId: document.userId,
    userDisplayName: document.userDisplayName,
    topic: document.topic,
    categories: document.categories,
    timestamp: document.timestamp.toISOString(),
    sharedAt: document.sharedAt.toISOString(),
    views: document.views,
    upvotes: document.upvotes,
    downvotes: document.downvotes,
    interesting: document.interesting,
    isPublic: true,
    isPro: document.isPro,
    model1: document.model1,
    model2: document.model2,
    rounds: document.rounds,
  };
}

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
   * own For vote (upvotes 1), no downvotes, no views. Idempotent; and an event older than a
   * later unshare of the same debate changes nothing (events may arrive out of order).
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
            $setOnInsert: { upvotes: 1, downvotes: 0, interesting: 0, views: 0 },
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

  async findPublic(debateId: string): Promise<PublicDebateDocument | null> {
    return this.debates
      .findOne({ _id: debateId, removedAt: null })
      .lean<PublicDebateDocument>()
      .exec();
  }
}
