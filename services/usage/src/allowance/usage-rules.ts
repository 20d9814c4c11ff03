import { FREE_DEBATE_REFILL_MS } from '@debate/contracts';

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

/**
 * When the refill (spec §3: 1 again once the last debate started more than the refill's days ago)
 * gives a user with `freeDebatesRemaining` 0 their debate: the first millisecond past the refill's
 * days, the times being kept to the millisecond. Null when it does not apply: a debate is left,
 * or none was ever started. The refill itself and the account page's date both read it.
 */
export function refillDueAt(usage: {
  readonly freeDebatesRemaining: number;
  readonly lastDebateStarted?: Date | null;
}): Date | null {
  if (usage.freeDebatesRemaining !== 0 || !usage.lastDebateStarted) return null;
  return new Date(usage.lastDebateStarted.getTime() + usageRules.refillAfterMs + 1);
}

/** Where the allowance reads the time: the server's clock, or a test's. */
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

/** How long a run may stay open before its debate is given back (USAGE_ABANDONED_RUN_MS). */
export const ABANDONED_RUN_AFTER_MS = Symbol('ABANDONED_RUN_AFTER_MS');

/** How many debates one user may start in any minute (USAGE_STARTS_PER_MINUTE). */
export const STARTS_PER_MINUTE = Symbol('STARTS_PER_MINUTE');
