import { type ResponseOf, type usageContracts, type UsageStats } from '@debate/contracts';
import { PinoLoggerService, withTransientRetry } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import type { UsageDocument } from '../schemas/usage.schema.js';
import {
  ABANDONED_RUN_AFTER_MS,
  CLOCK,
  type Clock,
  refillDueAt,
  STARTS_PER_MINUTE,
  TEST_ACCOUNT,
  type TestAccount,
  usageRules,
} from './usage-rules.js';
import { type RunTokens, UsageRepository } from './usage.repository.js';

/** Who asks: the user, their address and whether the realm has verified it. */
export interface Holder {
  readonly userId: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

/** A consume's answer: taken, or refused with the reason (the usage contract's). */
export type ConsumeResult = ResponseOf<typeof usageContracts.consume>;

/**
 * The statistics of `document`, read with the read rules applied. The test account's next free
 * debate is not the refill's: its daily reset comes sooner, so no date is given for it.
 */
function toStats(document: UsageDocument, testAccount: boolean): UsageStats {
  return {
    freeDebatesRemaining: document.freeDebatesRemaining,
    lastDebateStarted: document.lastDebateStarted?.toISOString() ?? null,
    nextFreeDebateAt: testAccount ? null : (refillDueAt(document)?.toISOString() ?? null),
    totalDebates: document.totalDebates,
    createdAt: document.createdAt.toISOString(),
    tokensIn: document.tokensIn ?? 0,
    tokensOut: document.tokensOut ?? 0,
  };
}

/**
 * The free-debate allowance (spec §4): 2 on creation, 1 again after the refill's days without a
 * debate, the test account's daily 100, the starts-per-minute limit, and the debates of runs that
 * failed or were abandoned given back. Each step is retried on transient errors (5 attempts in
 * all), then logged and rethrown.
 */
@Injectable()
export class AllowanceService {
  constructor(
    private readonly usage: UsageRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TEST_ACCOUNT) private readonly testAccount: TestAccount,
    private readonly logger: PinoLoggerService,
    @Inject(ABANDONED_RUN_AFTER_MS) private readonly abandonedRunAfterMs: number,
    @Inject(STARTS_PER_MINUTE) private readonly startsPerMinute: number,
  ) {}

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
    await this.step('initialisation', () =>
      this.usage.create(userId, email, createdAt, usageRules.freeOnCreation),
    );
  }

  private async readExisting(userId: string): Promise<UsageDocument> {
    const document = await this.usage.find(userId);
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
    let document = await this.usage.find(userId);
    if (!document) {
      await this.usage.create(userId, holder.email, now, usageRules.freeOnCreation);
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
   * account's daily 100, and the refill. Each is a conditional update whose guard is in its
   * filter; `document` (read just before) only spares the updates whose guard it does not meet.
   * Each rule can only add debates, which never meets a later rule's guard, so none is skipped
   * that an earlier one would have made apply. True when one changed the record.
   */
  private async applyReadRules(
    document: UsageDocument,
    holder: Holder,
    now: Date,
  ): Promise<boolean> {
    const refunded = await this.refundAbandonedRuns(document, now);
    const reset = await this.resetTestAccount(document, holder, now);
    const refilled = await this.refill(document, now);
    return refunded || reset || refilled;
  }

  /** The test account's daily 100: set once a day (UTC) when it has fewer. */
  private async resetTestAccount(
    document: UsageDocument,
    holder: Holder,
    now: Date,
  ): Promise<boolean> {
    const today = now.toISOString().slice(0, 10);
    if (
      !this.isTestAccount(holder) ||
      document.freeDebatesRemaining >= usageRules.testAccountDaily ||
      document.testResetOn === today
    ) {
      return false;
    }
    return this.usage.resetDaily(document._id, usageRules.testAccountDaily, today, now);
  }

  /**
   * The refill: a user with no debates left whose last one started more than the refill's days
   * ago (FREE_DEBATE_REFILL_DAYS, in the contracts) gets 1.
   */
  private async refill(document: UsageDocument, now: Date): Promise<boolean> {
    const due = refillDueAt(document);
    if (!due || now.getTime() < due.getTime()) return false;
    // The update's guard, in the store's terms: started before `now` less the refill's days,
    // which is `now` at or past refillDueAt.
    const refillBefore = new Date(now.getTime() - usageRules.refillAfterMs);
    return this.usage.refill(document._id, usageRules.refillTo, refillBefore, now);
  }

  /** The user's allowance, with the read rules applied (a missing record is created). */
  async stats(holder: Holder): Promise<UsageStats> {
    const now = this.clock();
    return this.step('read', async () =>
      toStats(await this.current(holder, now), this.isTestAccount(holder)),
    );
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
      const limit = { startsPerMinute: this.startsPerMinute, windowStart };
      // The refusal is told from the record read after the update missed; if the record has
      // changed since so that the update would now pass (a refund in between), it is tried again.
      for (let attempt = 1; ; attempt += 1) {
        const taken = await this.usage.take(userId, runId, now, limit);
        if (taken) return { granted: true, freeDebatesRemaining: taken.freeDebatesRemaining };
        const current = await this.usage.find(userId);
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
    return this.step('refund', () => this.usage.giveBack(userId, runId, now, tokens));
  }

  /** Closes `runId`: it ended normally, and its debate stays counted, with its tokens. */
  async settle(userId: string, runId: string, tokens: RunTokens): Promise<boolean> {
    return this.step('settlement', () => this.usage.settle(userId, runId, tokens));
  }

  /** The run of the user's last debate that ended normally; null when none has. */
  async lastRun(userId: string): Promise<string | null> {
    return this.step('read', async () => (await this.usage.find(userId))?.lastSettledRun ?? null);
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
      if (await this.usage.giveBack(userId, runId, now)) {
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
