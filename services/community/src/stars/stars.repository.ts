import { isDuplicateKeyError, MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type StarDocument, starModel } from '../schemas/star.schema.js';

/** The most stars one user's Starred view reads. */
const MAX_STARS = 5_000;

/** The users' stars (spec §4 'Starring'), owned by the community service. */
@Injectable()
export class StarsRepository implements OnApplicationBootstrap {
  private readonly stars: Model<StarDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.stars = starModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.stars.init();
  }

  /** Stars the debate for the user; a star that is there already stays as it is. */
  async insert(userId: string, debateId: string, now: Date): Promise<void> {
    try {
      await this.stars.create({ userId, debateId, at: now });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // starred by a concurrent request: starred it is
    }
  }

  /** Takes the user's star off the debate; false when there was none. */
  async remove(userId: string, debateId: string): Promise<boolean> {
    const removed = await this.stars.deleteOne({ userId, debateId }).exec();
    return removed.deletedCount > 0;
  }

  /** Stars each of `debateIds` for the user (those starred already stay as they are). */
  async add(userId: string, debateIds: readonly string[], now: Date): Promise<void> {
    if (debateIds.length === 0) return;
    await this.stars.bulkWrite(
      debateIds.map((debateId) => ({
        updateOne: {
          filter: { userId, debateId },
          update: { $setOnInsert: { userId, debateId, at: now } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }

  /** Which of `debateIds` the user starred (read through the unique user+debate index). */
  async starredAmong(userId: string, debateIds: readonly string[]): Promise<string[]> {
    if (debateIds.length === 0) return [];
    const found = await this.stars
      .find({ userId, debateId: { $in: debateIds } }, { debateId: 1 })
      .lean<Array<Pick<StarDocument, 'debateId'>>>()
      .exec();
    return found.map((star) => star.debateId);
  }

  /** The user's starred debate ids, newest star first. */
  async ids(userId: string): Promise<string[]> {
    const found = await this.stars
      .find({ userId }, { debateId: 1 })
      .sort({ at: -1 })
      .limit(MAX_STARS)
      .lean<Array<Pick<StarDocument, 'debateId'>>>()
      .exec();
    return found.map((star) => star.debateId);
  }
}
