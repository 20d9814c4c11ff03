import type { Debate, DebateCategory } from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The event a debate's last change owes the event log: the outbox. It is set in the same write
 * as the change and cleared once the log holds the event, so a change the user was told about
 * is announced even if the log was unreachable then, or the service stopped in between.
 */
export interface PendingEvent {
  readonly kind: 'shared' | 'unshared';
  /** When the change was made: the unshared event's time, and part of its event id. */
  readonly at: Date;
}

/** A saved debate in the store: the contract's fields, times as dates, the run id as _id. */
export interface DebateDocument extends Omit<Debate, 'id' | 'timestamp' | 'sharedAt'> {
  _id: string;
  timestamp: Date;
  sharedAt: Date | null;
  pendingEvent?: PendingEvent | null;
  /** Set when the owner deleted it while its removal from the community is still owed. */
  deletedAt?: Date | null;
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
    pendingEvent: {
      type: new Schema(
        {
          kind: { type: String, enum: ['shared', 'unshared'], required: true },
          at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    deletedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
// The history list: one user's debates by time (and id, for a stable cursor).
debateSchema.index({ userId: 1, timestamp: -1, _id: -1 });
// The outbox: only the few debates that still owe an event are in it.
debateSchema.index(
  { 'pendingEvent.at': 1 },
  { partialFilterExpression: { 'pendingEvent.at': { $exists: true } } },
);

/** Debates the owner has not deleted (a deleted one may wait for its removal to be announced). */
const NOT_DELETED = { deletedAt: null };

/** A debate made private at `now`, owing the community its unshared event. */
export function privateSince(
  now: Date,
): Pick<DebateDocument, 'isPublic' | 'sharedAt' | 'pendingEvent'> {
  return { isPublic: false, sharedAt: null, pendingEvent: { kind: 'unshared', at: now } };
}

export function toDebate(document: DebateDocument): Debate {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { _id, timestamp, sharedAt, pendingEvent, deletedAt, ...rest } = document;
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
    return this.debates
      .findOne({ _id: debateId, userId, ...NOT_DELETED })
      .lean<DebateDocument>()
      .exec();
  }

  async list(
    query: ListQuery,
  ): Promise<{ debates: DebateDocument[]; total: number; next: string | null }> {
    const filter: Record<string, unknown> = { userId: query.userId, ...NOT_DELETED };
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
   * all end with the same stamp. The shared event is owed from the same write. Null when the
   * debate is not theirs.
   */
  async makePublic(userId: string, debateId: string, now: Date): Promise<DebateDocument | null> {
    const changed = await this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, isPublic: false, ...NOT_DELETED },
        {
          $set: { isPublic: true, sharedAt: now, pendingEvent: { kind: 'shared', at: now } },
        },
        { returnDocument: 'after' },
      )
      .lean<DebateDocument>()
      .exec();
    return changed ?? this.findOwn(userId, debateId);
  }

  /**
   * Makes the user's public debate private, owing the unshared event; returns it as it was
   * before, or, if it was private already, as it is (null when not theirs).
   */
  async makePrivate(userId: string, debateId: string, now: Date): Promise<DebateDocument | null> {
    const changed = await this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, isPublic: true, ...NOT_DELETED },
        { $set: privateSince(now) },
        { returnDocument: 'before' },
      )
      .lean<DebateDocument>()
      .exec();
    return changed ?? this.findOwn(userId, debateId);
  }

  /**
   * Deletes the user's debate in two steps: it disappears from their history at once, owing
   * the unshared event; the document goes once that is announced (`remove`). Returns it as it
   * was before (null when not theirs).
   */
  markDeleted(userId: string, debateId: string, now: Date): Promise<DebateDocument | null> {
    return this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, ...NOT_DELETED },
        { $set: { ...privateSince(now), deletedAt: now } },
        { returnDocument: 'before' },
      )
      .lean<DebateDocument>()
      .exec();
  }

  /** Debates owing an event since before `before`, oldest first. */
  pending(before: Date, limit: number): Promise<DebateDocument[]> {
    return this.debates
      .find({ 'pendingEvent.at': { $lt: before } })
      .sort({ 'pendingEvent.at': 1 })
      .limit(limit)
      .lean<DebateDocument[]>()
      .exec();
  }

  /**
   * The event `pending` is announced: clears it, or, for a deleted debate, removes the
   * document. Only if it is still the one owed: a later change owes its own event.
   */
  async settle(debateId: string, pending: PendingEvent, deleted: boolean): Promise<void> {
    const filter = {
      _id: debateId,
      'pendingEvent.kind': pending.kind,
      'pendingEvent.at': pending.at,
    };
    if (deleted) await this.debates.deleteOne(filter).exec();
    else await this.debates.updateOne(filter, { $set: { pendingEvent: null } }).exec();
  }
}
