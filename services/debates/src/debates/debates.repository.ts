import type { Debate, DebateCategory } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Connection, type Model, Schema } from 'mongoose';

/** A saved debate in the store: the contract's fields, times as dates, the run id as _id. */
export interface DebateDocument extends Omit<Debate, 'id' | 'timestamp' | 'sharedAt'> {
  _id: string;
  timestamp: Date;
  sharedAt: Date | null;
}

const speakerInfo = {
  name: { type: String, required: true },
  stance: { type: Number, required: true },
  rhetoricStyle: { type: String, required: true },
};

const debateSchema = new Schema<DebateDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    userDisplayName: { type: String, required: true },
    topic: { type: String, required: true },
    categories: { type: [String], required: true },
    timestamp: { type: Date, required: true },
    sharedAt: { type: Date, default: null },
    views: { type: Number, default: 0 },
    upvotes: { type: Number, default: 0 },
    downvotes: { type: Number, default: 0 },
    isPublic: { type: Boolean, default: false },
    isPro: { type: Boolean, default: false },
    model1: speakerInfo,
    model2: speakerInfo,
    rounds: [
      {
        _id: false,
        speaker: { type: String, required: true },
        round: { type: Number, required: true },
        text: { type: String, required: true },
        summary: { type: String, required: true },
      },
    ],
  },
  { versionKey: false },
);
// The history list: one user's debates by time (and id, for a stable cursor).
debateSchema.index({ userId: 1, timestamp: -1, _id: -1 });

export function toDebate(document: DebateDocument): Debate {
  const { _id, timestamp, sharedAt, ...rest } = document;
  return {
    ...rest,
    id: _id,
    timestamp: timestamp.toISOString(),
    sharedAt: sharedAt?.toISOString() ?? null,
  };
}

/** `text` as a literal pattern: a search for "a+b" finds "a+b", never a regular expression. */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Cursor {
  readonly timestamp: Date;
  readonly id: string;
}

export function encodeCursor(document: Pick<DebateDocument, 'timestamp' | '_id'>): string {
  return Buffer.from(`${document.timestamp.toISOString()}|${document._id}`).toString('base64url');
}

export function decodeCursor(cursor: string): Cursor | undefined {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const timestamp = new Date(time ?? '');
  return id && !Number.isNaN(timestamp.getTime()) ? { timestamp, id } : undefined;
}

export interface ListQuery {
  readonly userId: string;
  readonly search?: string | undefined;
  readonly category?: DebateCategory | undefined;
  readonly order: 'newest' | 'oldest';
  readonly after?: string | undefined;
  readonly limit: number;
}

/** The private debates (spec §3), each readable and changeable by its owner only. */
@Injectable()
export class DebatesRepository implements OnApplicationBootstrap {
  private readonly debates: Model<DebateDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = connection.model<DebateDocument>('Debate', debateSchema, 'debates');
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.debates.init();
  }

  /** Stores a new debate; false when one with this id (the run) exists already. */
  async insert(document: DebateDocument): Promise<boolean> {
    try {
      await this.debates.create(document);
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  findOwn(userId: string, debateId: string): Promise<DebateDocument | null> {
    return this.debates.findOne({ _id: debateId, userId }).lean<DebateDocument>().exec();
  }

  async list(
    query: ListQuery,
  ): Promise<{ debates: DebateDocument[]; total: number; next: string | null }> {
    const filter: Record<string, unknown> = { userId: query.userId };
    if (query.category) filter['categories'] = query.category;
    if (query.search?.trim()) {
      filter['topic'] = { $regex: literalPattern(query.search.trim()), $options: 'i' };
    }
    const total = await this.debates.countDocuments(filter).exec();
    const direction = query.order === 'newest' ? -1 : 1;
    const cursor = query.after ? decodeCursor(query.after) : undefined;
    const page = cursor
      ? {
          ...filter,
          $or: [
            { timestamp: { [direction < 0 ? '$lt' : '$gt']: cursor.timestamp } },
            { timestamp: cursor.timestamp, _id: { [direction < 0 ? '$lt' : '$gt']: cursor.id } },
          ],
        }
      : filter;
    const found = await this.debates
      .find(page)
      .sort({ timestamp: direction, _id: direction })
      .limit(query.limit + 1)
      .lean<DebateDocument[]>()
      .exec();
    const debates = found.slice(0, query.limit);
    const last = debates.at(-1);
    return { debates, total, next: found.length > query.limit && last ? encodeCursor(last) : null };
  }

  /**
   * Makes the user's debate public, stamping sharedAt only if it was private: concurrent shares
   * all end with the same stamp. Null when the debate is not theirs.
   */
  async makePublic(userId: string, debateId: string, now: Date): Promise<DebateDocument | null> {
    const changed = await this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, isPublic: false },
        { $set: { isPublic: true, sharedAt: now } },
        { returnDocument: 'after' },
      )
      .lean<DebateDocument>()
      .exec();
    return changed ?? this.findOwn(userId, debateId);
  }

  /** Makes the user's debate private; returns it as it was before (null when not theirs). */
  makePrivate(userId: string, debateId: string): Promise<DebateDocument | null> {
    return this.debates
      .findOneAndUpdate(
        { _id: debateId, userId },
        { $set: { isPublic: false, sharedAt: null } },
        { returnDocument: 'before' },
      )
      .lean<DebateDocument>()
      .exec();
  }

  async deleteOwn(userId: string, debateId: string): Promise<DebateDocument | null> {
    return this.debates.findOneAndDelete({ _id: debateId, userId }).lean<DebateDocument>().exec();
  }
}
