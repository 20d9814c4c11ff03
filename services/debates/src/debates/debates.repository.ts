import type { DebateCategory } from '@debate/contracts';
import { isDuplicateKeyError, MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import type { PendingEvent } from '../schemas/pending-event.schema.js';
import { type SavedDebateDocument, savedDebateModel } from '../schemas/saved-debate.schema.js';

/** Debates the owner has not deleted (a deleted one may wait for its removal to be announced). */
const NOT_DELETED = { deletedAt: null };

/** What making a debate private writes: not public, no share time, the unshared event owed. */
export type PrivateChange = Pick<SavedDebateDocument, 'isPublic' | 'sharedAt' | 'pendingEvent'>;

/** `text` as a literal pattern: a search for "a+b" finds "a+b", never a regular expression. */
function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Cursor {
  readonly timestamp: Date;
  readonly id: string;
}

function encodeCursor(document: Pick<SavedDebateDocument, 'timestamp' | '_id'>): string {
  return Buffer.from(`${document.timestamp.toISOString()}|${document._id}`).toString('base64url');
}

function decodeCursor(cursor: string): Cursor | undefined {
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
  private readonly debates: Model<SavedDebateDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.debates = savedDebateModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.debates.init();
  }

  /** Stores a new debate; false when one with this id (the run) exists already. */
  async insert(document: SavedDebateDocument): Promise<boolean> {
    try {
      await this.debates.create(document);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  findOwn(userId: string, debateId: string): Promise<SavedDebateDocument | null> {
    return this.debates
      .findOne({ _id: debateId, userId, ...NOT_DELETED })
      .lean<SavedDebateDocument>()
      .exec();
  }

  async list(
    query: ListQuery,
  ): Promise<{ debates: SavedDebateDocument[]; total: number; next: string | null }> {
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
      .lean<SavedDebateDocument[]>()
      .exec();
    const debates = found.slice(0, query.limit);
    const last = debates.at(-1);
    return { debates, total, next: found.length > query.limit && last ? encodeCursor(last) : null };
  }

  /**
   * Makes the user's debate public, stamping sharedAt only if it was private: concurrent shares
   * all end with the same stamp. The shared event is owed from the same write. Returns it as it
   * is after (null when the debate is not theirs).
   */
  async makePublic(
    userId: string,
    debateId: string,
    now: Date,
  ): Promise<SavedDebateDocument | null> {
    const changed = await this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, isPublic: false, ...NOT_DELETED },
        {
          $set: { isPublic: true, sharedAt: now, pendingEvent: { kind: 'shared', at: now } },
        },
        { returnDocument: 'after' },
      )
      .lean<SavedDebateDocument>()
      .exec();
    return changed ?? this.findOwn(userId, debateId);
  }

  /**
   * Writes `change` into the user's debate if it is public; returns it as it was before, or,
   * if it was private already, as it is (null when not theirs).
   */
  async makePrivate(
    userId: string,
    debateId: string,
    change: PrivateChange,
  ): Promise<SavedDebateDocument | null> {
    const changed = await this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, isPublic: true, ...NOT_DELETED },
        { $set: change },
        { returnDocument: 'before' },
      )
      .lean<SavedDebateDocument>()
      .exec();
    return changed ?? this.findOwn(userId, debateId);
  }

  /**
   * Marks the user's debate deleted (with `change`): it leaves their history at once, and the
   * document goes once its event is settled (`settle`). Returns it as it was before (null when
   * not theirs).
   */
  markDeleted(
    userId: string,
    debateId: string,
    change: PrivateChange & Pick<SavedDebateDocument, 'deletedAt'>,
  ): Promise<SavedDebateDocument | null> {
    return this.debates
      .findOneAndUpdate(
        { _id: debateId, userId, ...NOT_DELETED },
        { $set: change },
        { returnDocument: 'before' },
      )
      .lean<SavedDebateDocument>()
      .exec();
  }

  /** Debates owing an event since before `before`, oldest first. */
  pending(before: Date, limit: number): Promise<SavedDebateDocument[]> {
    return this.debates
      .find({ 'pendingEvent.at': { $lt: before } })
      .sort({ 'pendingEvent.at': 1 })
      .limit(limit)
      .lean<SavedDebateDocument[]>()
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
