import {
  FREE_DEBATE_REFILL_MS,
  type ResponseOf,
  type usageContracts,
  type UsageStats,
} from '@debate/contracts';
import {
  isDuplicateKeyError,
  MONGO_CONNECTION,
  PinoLoggerService,
  withTransientRetry,
} from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type UsageDocument, usageModel } from '../schemas/usage.schema.js';

/** The rules' numbers (spec §4), named once. */
export const usageRules = {
  freeOnCreation: 2,
  /** The refill's period, defined once in the contracts (the account page and messages say it). */
  refillAfterMs: FREE_DEBATE_REFILL_MS,
  refillTo: 1,
  testAccountDaily: 100,
  /**
   * By default, a run still open this long after its debate was taken has stopped without a
   * word (its generation instance crashed or was killed): its debate is given back. A run lasts
   * minutes with the default timeouts: six turns, each given up after 30 s without a token.
   */
  abandonedRunAfterMs: 60 * 60 * 1000,
  /**
   * By default, how many debates one user may start in any minute. Kept in the user's record
   * and checked in the same update that takes the debate, so it holds across every gateway and
   * generation instance and under concurrent starts.
   */
  startsPerMinute: 5,
  startWindowMs: 60 * 1000,
} as const;

/** Where the ledger reads the time: the server's clock, or a test's. */
export const CLOCK = Symbol('CLOCK');
export type Clock = () => Date;

/**
 * Which account gets the daily 100: by its verified address (USAGE_TEST_ACCOUNT_EMAIL, lower
 * case) or by its user id (USAGE_TEST_ACCOUNT_ID); none when neither is set.
 */
export const TEST_ACCOUNT = Symbol('TEST_ACCOUNT');
export interface TestAccount {
  readonly email: string | null;
  readonly userId: string | null;
}

/** Who asks: the user, their address and whether the realm has verified it. */
export interface Holder {
  readonly userId: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

/** How long a run may stay open before its debate is given back (USAGE_ABANDONED_RUN_MS). */
export const ABANDONED_RUN_AFTER_MS = Symbol('ABANDONED_RUN_AFTER_MS');

/** How many debates one user may start in any minute (USAGE_STARTS_PER_MINUTE). */
export const STARTS_PER_MINUTE = Symbol('STARTS_PER_MINUTE');

/** A consume's answer: taken, or refused with the reason (the usage contract's). */
export type ConsumeResult = ResponseOf<typeof usageContracts.consume>;

function toStats(document: UsageDocument): UsageStats {
  return {
    freeDebatesRemaining: document.freeDebatesRemaining,
    lastDebateStarted: document.lastDebateStarted?.toISOString() ?? null,
    totalDebates: document.totalDebates,
    createdAt: document.createdAt.toISOString(),
    tokensIn: document.tokensIn ?? 0,
    tokensOut: document.tokensOut ?? 0,
  };
}

/** The tokens a run's models counted, added to the user's once, when the run is closed. */
export interface RunTokens {
  readonly tokensIn: number;
  readonly tokensOut: number;
}

const NO_TOKENS: RunTokens = { tokensIn: 0, tokensOut: 0 };

/**
 * The free-debate allowance. Every change is one conditional update whose guard is in the
 * filter, so concurrent requests cannot overdraw it and no multi-document transaction is needed;
 * transient errors are retried (5 attempts in all), then logged and rethrown.
 */
@Injectable()
export class UsageLedger {
  private readonly usage: Model<UsageDocument>;

  constructor(
    @Inject(MONGO_CONNECTION) connection: Connection,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TEST_ACCOUNT) private readonly testAccount: TestAccount,
    private readonly logger: PinoLoggerService,
    @Inject(ABANDONED_RUN_AFTER_MS) private readonly abandonedRunAfterMs: number,
    @Inject(STARTS_PER_MINUTE) private readonly startsPerMinute: number,
  ) {
    this.usage = usageModel(connection);
  }

  private async step<T>(what: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await withTransientRetry(operation, 5);
    } catch (error) {
      this.logger.error(`Usage ${what} failed: ${String(error)}`);
      throw error;
    }
  }

  /** Creates the record of a new user with the free allowance; does nothing if it exists. */
  async initialise(userId: string, email: string, createdAt: Date = this.clock()): Promise<void> {
    await this.step('initialisation', () => this.create(userId, email, createdAt));
  }

  private async create(userId: string, email: string, createdAt: Date): Promise<void> {
    try {
      await this.usage
        .updateOne(
          { _id: userId },
          {
            $setOnInsert: {
              userId,
              email,
              totalDebates: 0,
              freeDebatesRemaining: usageRules.freeOnCreation,
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
      // Two initialisations raced: the other one created it.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  private read(userId: string): Promise<UsageDocument | null> {
    return this.usage.findById(userId).lean<UsageDocument>().exec();
  }

  private async readExisting(userId: string): Promise<UsageDocument> {
    const document = await this.read(userId);
    if (!document) throw new Error(`No usage record for ${userId}`);
    return document;
  }

  /**
   * The user's record with the read rules applied, created with the free allowance if it is
   * missing. One read when no rule applies (the usual case), else the rules' updates and a
   * second read.
   */
  private async current(holder: Holder, now: Date): Promise<UsageDocument> {
    const { userId } = holder;
    let document = await this.read(userId);
    if (!document) {
      await this.create(userId, holder.email, now);
      document = await this.readExisting(userId);
    }
    const changed = await this.applyReadRules(document, holder, now);
    return changed ? this.readExisting(userId) : document;
  }

  /**
   * Whether `holder` is the designated test account: by its user id, or by its address when the
   * realm has verified it (anyone can type an address at sign-up, or claim one at a provider).
   */
  private isTestAccount(holder: Holder): boolean {
    const { email, userId } = this.testAccount;
    return (
      holder.userId === userId ||
      (holder.emailVerified && email !== null && holder.email.toLowerCase() === email)
    );
  }

  /**
   * The read rules: runs abandoned by a stopped generation instance given back, the test
   * account's daily 100, and 1 after six days without a debate. Each is a conditional update
   * whose guard is in its filter; `document` (read just before) only spares the updates whose
   * guard it does not meet. Each rule can only add debates, which never meets a later rule's
   * guard, so none is skipped that an earlier one would have made apply. True when one changed
   * the record.
   */
  private async applyReadRules(
    document: UsageDocument,
    holder: Holder,
    now: Date,
  ): Promise<boolean> {
    const userId = document._id;
    let changed = await this.refundAbandonedRuns(document, now);
    const today = now.toISOString().slice(0, 10);
    if (
      this.isTestAccount(holder) &&
      document.freeDebatesRemaining < usageRules.testAccountDaily &&
      document.testResetOn !== today
    ) {
      const reset = await this.usage
        .updateOne(
          {
            _id: userId,
            freeDebatesRemaining: { $lt: usageRules.testAccountDaily },
            testResetOn: { $ne: today },
          },
          {
            $set: {
              freeDebatesRemaining: usageRules.testAccountDaily,
              testResetOn: today,
              updatedAt: now,
            },
          },
        )
        .exec();
      changed ||= reset.modifiedCount > 0;
    }
    const refillBefore = new Date(now.getTime() - usageRules.refillAfterMs);
    if (
      document.freeDebatesRemaining === 0 &&
      document.lastDebateStarted &&
      document.lastDebateStarted.getTime() < refillBefore.getTime()
    ) {
      const refill = await this.usage
        .updateOne(
          { _id: userId, freeDebatesRemaining: 0, lastDebateStarted: { $lt: refillBefore } },
          { $set: { freeDebatesRemaining: usageRules.refillTo, updatedAt: now } },
        )
        .exec();
      changed ||= refill.modifiedCount > 0;
    }
    return changed;
  }

  /** The user's allowance, with the read rules applied (a missing record is created). */
  async stats(holder: Holder): Promise<UsageStats> {
    const now = this.clock();
    return this.step('read', async () => toStats(await this.current(holder, now)));
  }

  /**
   * Takes one free debate for `runId` if one is left and the user has started fewer than the
   * limit's worth in the last minute: both guards are in the one conditional update's filter.
   * Once per run: asked again for a run that has its debate (a retry whose answer was lost), it
   * answers granted and takes nothing.
   */
  async consume(holder: Holder, runId: string): Promise<ConsumeResult> {
    const { userId } = holder;
    const now = this.clock();
    return this.step('count', async () => {
      await this.current(holder, now);
      const windowStart = new Date(now.getTime() - usageRules.startWindowMs);
      // The refusal is told from the record read after the update missed; if the record has
      // changed since so that the update would now pass (a refund in between), it is tried again.
      for (let attempt = 1; ; attempt += 1) {
        const taken = await this.usage
          .findOneAndUpdate(
            {
              _id: userId,
              freeDebatesRemaining: { $gt: 0 },
              openRuns: { $ne: runId },
              // recentStarts is newest first: the limit's last slot is empty or outside the window.
              [`recentStarts.${this.startsPerMinute - 1}`]: { $not: { $gt: windowStart } },
            },
            {
              $inc: { freeDebatesRemaining: -1, totalDebates: 1 },
              $set: { lastDebateStarted: now, updatedAt: now, [`openRunsTakenAt.${runId}`]: now },
              $push: {
                openRuns: runId,
                recentStarts: { $each: [now], $position: 0, $slice: this.startsPerMinute },
              },
            },
            { returnDocument: 'after' },
          )
          .lean<UsageDocument>()
          .exec();
        if (taken) return { granted: true, freeDebatesRemaining: taken.freeDebatesRemaining };
        const current = await this.read(userId);
        const freeDebatesRemaining = current?.freeDebatesRemaining ?? 0;
        if (current?.openRuns.includes(runId)) return { granted: true, freeDebatesRemaining };
        if (freeDebatesRemaining <= 0) {
          return { granted: false, reason: 'no_free_debates', freeDebatesRemaining };
        }
        const limitReached =
          (current?.recentStarts?.[this.startsPerMinute - 1]?.getTime() ?? -Infinity) >
          windowStart.getTime();
        if (limitReached || attempt === 3) {
          return { granted: false, reason: 'rate_limited', freeDebatesRemaining };
        }
      }
    });
  }

  /** Gives back the debate taken for `runId`, if it is still open (once). */
  async refund(userId: string, runId: string, tokens: RunTokens): Promise<boolean> {
    const now = this.clock();
    return this.step('refund', () => this.giveBack(userId, runId, now, tokens));
  }

  private async giveBack(
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

  /** Closes `runId`: it ended normally, and its debate stays counted, with its tokens. */
  async settle(userId: string, runId: string, tokens: RunTokens): Promise<boolean> {
    return this.step('settlement', async () => {
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
    });
  }

  /** The run of the user's last debate that ended normally; null when none has. */
  async lastRun(userId: string): Promise<string | null> {
    return this.step('read', async () => (await this.read(userId))?.lastSettledRun ?? null);
  }

  /**
   * Gives back the debates of the user's runs open for longer than any run lasts: their
   * generation instance stopped before it could settle or refund them (a crash, a kill), and
   * no other instance knows them. Each is given back as a refund is, once: a run that still
   * ends later finds nothing left to settle.
   */
  private async refundAbandonedRuns(document: UsageDocument, now: Date): Promise<boolean> {
    const userId = document._id;
    let refunded = false;
    const before = now.getTime() - this.abandonedRunAfterMs;
    for (const runId of document.openRuns) {
      const takenAt =
        document.openRunsTakenAt?.[runId] ?? document.lastDebateStarted ?? document.createdAt;
      if (new Date(takenAt).getTime() >= before) continue;
      if (await this.giveBack(userId, runId, now)) {
        refunded = true;
        this.logger.warn(
          `Run ${runId} of ${userId} was still open ${Math.round(
            (now.getTime() - new Date(takenAt).getTime()) / 60_000,
          )} min after it started (its generation instance stopped?): its debate was given back`,
        );
      }
    }
    return refunded;
  }
}
