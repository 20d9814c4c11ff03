import { z } from 'zod';
import { defineRequest } from './contract.js';
import { subjects } from './subjects.js';

const userId = z.string().min(1).max(128);
const email = z.email().max(320);
const runId = z.string().min(1).max(128);
const count = z.number().int().nonnegative();
/**
 * Whether the realm has verified the address (the token's `email_verified`): the designated test
 * account is matched by its address only when it is verified. Absent: not verified.
 */
const emailVerified = z.boolean().default(false);

/** A user's free-debate allowance and history (spec §3 debateUsage, §4 Free-debate usage). */
export const UsageStats = z
  .object({
    freeDebatesRemaining: count,
    lastDebateStarted: z.iso.datetime().nullable(),
    /**
     * When the refill gives 1 again (the first moment more than the refill's days have passed
     * since the last debate started); null when it does not apply: a free debate is left, none
     * was ever started, or the account is the test account (its daily reset comes first).
     */
    nextFreeDebateAt: z.iso.datetime().nullable(),
    totalDebates: count,
    /** When the usage record was created: the user's first sign-in. */
    createdAt: z.iso.datetime(),
    /** The tokens the models counted for the user's debates, read and written (the stream's usage). */
    tokensIn: count,
    tokensOut: count,
  })
  .strict();
export type UsageStats = z.output<typeof UsageStats>;

/** A run's end, with the tokens its models counted (none for the offline speaker's turns). */
const EndedRun = z.object({ userId, runId, tokensIn: count, tokensOut: count }).strict();

/** Why no debate was taken: none is left, or the user started the per-minute limit's worth. */
export const ConsumeRefusal = z.enum(['no_free_debates', 'rate_limited']);

export const usageContracts = {
  /** Reads the allowance, applying the read rules (the 6-day refill, the test account's 100). */
  stats: defineRequest(
    subjects.usage.stats.get,
    z.object({ userId, email, emailVerified }).strict(),
    UsageStats,
  ),
  /**
   * Takes one free debate for run `runId`, before the run starts: one conditional update, so
   * concurrent calls can never take more than there is, nor start more than the per-minute
   * limit allows. Refused with the reason: none left, or too many started this minute.
   */
  consume: defineRequest(
    subjects.usage.allowance.consume,
    z.object({ userId, email, emailVerified, runId }).strict(),
    z.union([
      z.object({ granted: z.literal(true), freeDebatesRemaining: count }).strict(),
      z
        .object({
          granted: z.literal(false),
          reason: ConsumeRefusal,
          freeDebatesRemaining: count,
        })
        .strict(),
    ]),
  ),
  /** Gives the debate of a run that failed as a whole back (once). */
  refund: defineRequest(
    subjects.usage.allowance.refund,
    EndedRun,
    z.object({ refunded: z.boolean() }).strict(),
  ),
  /** Records that a run ended normally: its debate can no longer be given back. */
  settle: defineRequest(
    subjects.usage.allowance.settle,
    EndedRun,
    z.object({ settled: z.boolean() }).strict(),
  ),
  /** The run of the user's last debate that ended normally (settled); null: none yet. */
  lastRun: defineRequest(
    subjects.usage.lastRun.get,
    z.object({ userId }).strict(),
    z.object({ runId: runId.nullable() }).strict(),
  ),
} as const;
