import { isDuplicateKeyError, MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type UsageDocument, usageModel } from '../schemas/usage.schema.js';

/** The tokens a run's models counted, added to the user's once, when the run is closed. */
export interface RunTokens {
  readonly tokensIn: number;
  readonly tokensOut: number;
}

const NO_TOKENS: RunTokens = { tokensIn: 0, tokensOut: 0 };

/**
 * The `debateUsage` collection. Every change is one conditional update whose guard is in the
 * filter, so concurrent requests cannot overdraw the allowance and no multi-document transaction
 * is needed.
 */
@Injectable()
export class UsageRepository {
  private readonly usage: Model<UsageDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.usage = usageModel(connection);
  }

  /** Creates the user's record with `freeDebates`; does nothing if it exists. */
  async create(userId: string, email: string, createdAt: Date, freeDebates: number): Promise<void> {
    try {
      await this.usage
        .updateOne(
          { _id: userId },
          {
            $setOnInsert: {
              userId,
              email,
              totalDebates: 0,
              freeDebatesRemaining: freeDebates,
              lastDebateStarted: null,
              createdAt,
              updatedAt: createdAt,
              testResetOn: null,
              openRuns: [],
              openRunsTakenAt: {},
            },
          },
          { upsert: true },
        )
        .exec();
    } catch (error) {
      // Two creations raced: the other one created it.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  find(userId: string): Promise<UsageDocument | null> {
    return this.usage.findById(userId).lean<UsageDocument>().exec();
  }

  /** Sets the allowance to `daily` unless it is at least that or was set so `today`. */
  async resetDaily(userId: string, daily: number, today: string, now: Date): Promise<boolean> {
    const reset = await this.usage
      .updateOne(
        { _id: userId, freeDebatesRemaining: { $lt: daily }, testResetOn: { $ne: today } },
        { $set: { freeDebatesRemaining: daily, testResetOn: today, updatedAt: now } },
      )
      .exec();
    return reset.modifiedCount > 0;
  }

  /** Sets an empty allowance to `to` if the user's last debate started before `startedBefore`. */
  async refill(userId: string, to: number, startedBefore: Date, now: Date): Promise<boolean> {
    const refill = await this.usage
      .updateOne(
        { _id: userId, freeDebatesRemaining: 0, lastDebateStarted: { $lt: startedBefore } },
        { $set: { freeDebatesRemaining: to, updatedAt: now } },
      )
      .exec();
    return refill.modifiedCount > 0;
  }

  /**
   * Takes one debate for `runId` and records its start if one is left, the run has none yet and
   * fewer than `startsPerMinute` started since `windowStart`; the record after, or null when a
   * guard refused.
   */
  take(
    userId: string,
    runId: string,
    now: Date,
    limit: { readonly startsPerMinute: number; readonly windowStart: Date },
  ): Promise<UsageDocument | null> {
    return this.usage
      .findOneAndUpdate(
        {
          _id: userId,
          freeDebatesRemaining: { $gt: 0 },
          openRuns: { $ne: runId },
          // recentStarts is newest first: the limit's last slot is empty or outside the window.
          [`recentStarts.${limit.startsPerMinute - 1}`]: { $not: { $gt: limit.windowStart } },
        },
        {
          $inc: { freeDebatesRemaining: -1, totalDebates: 1 },
          $set: { lastDebateStarted: now, updatedAt: now, [`openRunsTakenAt.${runId}`]: now },
          $push: {
            openRuns: runId,
            recentStarts: { $each: [now], $position: 0, $slice: limit.startsPerMinute },
          },
        },
        { returnDocument: 'after' },
      )
      .lean<UsageDocument>()
      .exec();
  }

  /** Gives back the debate taken for `runId` with its tokens, if the run is still open (once). */
  async giveBack(
    userId: string,
    runId: string,
    now: Date,
    tokens: RunTokens = NO_TOKENS,
  ): Promise<boolean> {
    const result = await this.usage
      .updateOne(
        { _id: userId, openRuns: runId },
        {
          $pull: { openRuns: runId },
          $inc: { freeDebatesRemaining: 1, totalDebates: -1, ...tokens },
          $set: { updatedAt: now },
          $unset: { [`openRunsTakenAt.${runId}`]: 1 },
        },
      )
      .exec();
    return result.modifiedCount === 1;
  }

  /** Closes `runId` with its tokens, its debate kept, if the run is still open (once). */
  async settle(userId: string, runId: string, tokens: RunTokens): Promise<boolean> {
    const result = await this.usage
      .updateOne(
        { _id: userId, openRuns: runId },
        {
          $pull: { openRuns: runId },
          $inc: { ...tokens },
          $set: { lastSettledRun: runId },
          $unset: { [`openRunsTakenAt.${runId}`]: 1 },
        },
      )
      .exec();
    return result.modifiedCount === 1;
  }
}
