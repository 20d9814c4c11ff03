import { start } from '@debate/embedded-mongo';
import { createLogger, PinoLoggerService } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection } from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllowanceService } from './allowance.service.js';
import { usageRules } from './usage-rules.js';
import { UsageRepository } from './usage.repository.js';

const DAY = 24 * 60 * 60 * 1000;
const TEST_ACCOUNT = 'tester@example.org';

/** A user asking with `email`, which the realm has verified. */
const holder = (userId: string, email: string) => ({ userId, email, emailVerified: true });

// The rules of spec §4 'Free-debate usage', against the store, with a clock the test moves.
const NONE = { tokensIn: 0, tokensOut: 0 };

describe('the free-debate allowance', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof start>>;
  let connection: Connection;
  let now: Date;
  let allowance: AllowanceService;
  let users = 0;
  const newUser = () => `user-${(users += 1)}`;
  /** The allowance on the test's store and clock; the rules' defaults unless `startsPerMinute`. */
  const allowanceWith = (startsPerMinute?: number) =>
    new AllowanceService(
      new UsageRepository(connection),
      () => now,
      { email: TEST_ACCOUNT, userId: null },
      new PinoLoggerService(createLogger('usage', 'silent')),
      usageRules.abandonedRunAfterMs,
      startsPerMinute ?? usageRules.startsPerMinute,
    );

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'usage-'));
    store = await start({ port: 0, dbPath: join(dataDir, 'mongo') });
    connection = await mongoose.createConnection(store.uri, { dbName: 'usage' }).asPromise();
    allowance = allowanceWith();
  });

  afterAll(async () => {
    await connection?.close();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives a new user 2, counts each debate, and refuses the third', async () => {
    now = new Date('2026-03-02T10:00:00Z');
    const user = newUser();
    await allowance.initialise(user, 'a@example.org');
    expect(await allowance.stats(holder(user, 'a@example.org'))).toEqual({
      freeDebatesRemaining: 2,
      lastDebateStarted: null,
      nextFreeDebateAt: null,
      totalDebates: 0,
      createdAt: '2026-03-02T10:00:00.000Z',
      tokensIn: 0,
      tokensOut: 0,
    });
    expect(await allowance.consume(holder(user, 'a@example.org'), 'r1')).toEqual({
      granted: true,
      freeDebatesRemaining: 1,
    });
    now = new Date('2026-03-02T11:00:00Z');
    expect(await allowance.consume(holder(user, 'a@example.org'), 'r2')).toEqual({
      granted: true,
      freeDebatesRemaining: 0,
    });
    expect(await allowance.consume(holder(user, 'a@example.org'), 'r3')).toEqual({
      granted: false,
      reason: 'no_free_debates',
      freeDebatesRemaining: 0,
    });
    expect(await allowance.stats(holder(user, 'a@example.org'))).toMatchObject({
      freeDebatesRemaining: 0,
      totalDebates: 2,
      lastDebateStarted: '2026-03-02T11:00:00.000Z',
    });
  });

  it('gives 1 back after more than six days without a debate, not before', async () => {
    now = new Date('2026-03-02T11:00:00Z');
    const user = newUser();
    await allowance.consume(holder(user, 'b@example.org'), 'r1');
    await allowance.consume(holder(user, 'b@example.org'), 'r2');
    // Both runs complete (an open one would be given back after an hour: below).
    await allowance.settle(user, 'r1', NONE);
    await allowance.settle(user, 'r2', NONE);
    now = new Date(now.getTime() + 6 * DAY);
    expect((await allowance.stats(holder(user, 'b@example.org'))).freeDebatesRemaining).toBe(0);
    expect((await allowance.consume(holder(user, 'b@example.org'), 'r3')).granted).toBe(false);
    now = new Date(now.getTime() + 1000);
    expect((await allowance.stats(holder(user, 'b@example.org'))).freeDebatesRemaining).toBe(1);
    expect(await allowance.consume(holder(user, 'b@example.org'), 'r4')).toEqual({
      granted: true,
      freeDebatesRemaining: 0,
    });
    // Reading again the same day gives nothing more.
    expect((await allowance.stats(holder(user, 'b@example.org'))).freeDebatesRemaining).toBe(0);
  });

  it('says when the next free debate comes at 0: the moment the refill gives it, no sooner', async () => {
    const started = new Date('2026-12-01T09:30:00Z');
    now = started;
    const user = newUser();
    const asker = holder(user, 'next@example.org');
    await allowance.consume(asker, 'r1');
    // One left: no date.
    expect((await allowance.stats(asker)).nextFreeDebateAt).toBeNull();
    await allowance.consume(asker, 'r2');
    await allowance.settle(user, 'r1', NONE);
    await allowance.settle(user, 'r2', NONE);
    // More than six days after the last debate started: the first millisecond past them.
    const due = '2026-12-07T09:30:00.001Z';
    expect(await allowance.stats(asker)).toMatchObject({
      freeDebatesRemaining: 0,
      lastDebateStarted: started.toISOString(),
      nextFreeDebateAt: due,
    });
    // Just before: still none, and the same date.
    now = new Date(started.getTime() + 6 * DAY);
    expect(await allowance.stats(asker)).toMatchObject({
      freeDebatesRemaining: 0,
      nextFreeDebateAt: due,
    });
    expect((await allowance.consume(asker, 'r3')).granted).toBe(false);
    // At the date: the refill has given 1, and there is no next date while it is left.
    now = new Date(due);
    expect(await allowance.stats(asker)).toMatchObject({
      freeDebatesRemaining: 1,
      nextFreeDebateAt: null,
    });
    // Taken: the next comes six days and a millisecond after this debate.
    expect((await allowance.consume(asker, 'r4')).granted).toBe(true);
    expect((await allowance.stats(asker)).nextFreeDebateAt).toBe('2026-12-13T09:30:00.002Z');
  });

  it('gives the test account no refill date at 0: its daily reset comes first', async () => {
    now = new Date('2026-12-01T09:30:00Z');
    const user = newUser();
    const tester = holder(user, TEST_ACCOUNT);
    await allowance.consume(tester, 'r1');
    // Its 100 spent today (set in the store: 100 starts would take 20 minutes of the limit).
    await connection
      .collection('debateUsage')
      .updateOne({ _id: user as never }, { $set: { freeDebatesRemaining: 0 } });
    expect(await allowance.stats(tester)).toMatchObject({
      freeDebatesRemaining: 0,
      nextFreeDebateAt: null,
    });
  });

  it('creates the record of a user it has not heard of with the free 2, then counts', async () => {
    now = new Date('2026-04-01T00:00:00Z');
    const user = newUser();
    expect(await allowance.consume(holder(user, 'c@example.org'), 'r1')).toEqual({
      granted: true,
      freeDebatesRemaining: 1,
    });
    // A late identity.user.created changes nothing.
    await allowance.initialise(user, 'c@example.org');
    expect((await allowance.stats(holder(user, 'c@example.org'))).freeDebatesRemaining).toBe(1);
  });

  it('resets the test account to 100 once per calendar day (UTC)', async () => {
    const user = newUser();
    now = new Date('2026-05-10T23:58:00Z');
    expect((await allowance.stats(holder(user, TEST_ACCOUNT))).freeDebatesRemaining).toBe(100);
    await allowance.consume(holder(user, TEST_ACCOUNT), 'r1');
    await allowance.consume(holder(user, TEST_ACCOUNT), 'r2');
    now = new Date('2026-05-10T23:59:59Z');
    expect((await allowance.stats(holder(user, TEST_ACCOUNT))).freeDebatesRemaining).toBe(98);
    now = new Date('2026-05-11T00:00:01Z');
    expect((await allowance.stats(holder(user, TEST_ACCOUNT))).freeDebatesRemaining).toBe(100);
    expect(
      (await allowance.stats(holder('someone-else', 'other@example.org'))).freeDebatesRemaining,
    ).toBe(2);
  });

  it('gives a failed run its debate back once, and never a settled one', async () => {
    now = new Date('2026-06-01T08:00:00Z');
    const user = newUser();
    await allowance.consume(holder(user, 'd@example.org'), 'failed');
    await allowance.consume(holder(user, 'd@example.org'), 'finished');
    expect(await allowance.refund(user, 'failed', NONE)).toBe(true);
    expect(await allowance.refund(user, 'failed', NONE)).toBe(false);
    expect(await allowance.settle(user, 'finished', NONE)).toBe(true);
    expect(await allowance.refund(user, 'finished', NONE)).toBe(false);
    expect(await allowance.stats(holder(user, 'd@example.org'))).toMatchObject({
      freeDebatesRemaining: 1,
      totalDebates: 1,
    });
  });

  it("adds a run's tokens to the user's once, whether it settled or was given back", async () => {
    now = new Date('2026-06-02T08:00:00Z');
    const user = newUser();
    await allowance.consume(holder(user, 'e@example.org'), 'spoke');
    await allowance.consume(holder(user, 'e@example.org'), 'broke');
    expect(await allowance.settle(user, 'spoke', { tokensIn: 1200, tokensOut: 300 })).toBe(true);
    // A late second settlement of the same run (a retry) adds nothing.
    expect(await allowance.settle(user, 'spoke', { tokensIn: 1200, tokensOut: 300 })).toBe(false);
    // A run that failed as a whole still used what its failed turns were counted.
    expect(await allowance.refund(user, 'broke', { tokensIn: 40, tokensOut: 0 })).toBe(true);
    expect(await allowance.stats(holder(user, 'e@example.org'))).toMatchObject({
      tokensIn: 1240,
      tokensOut: 300,
    });
  });

  it('gives back the debate of a run left open over an hour (its instance stopped), once', async () => {
    now = new Date('2026-06-03T08:00:00Z');
    const user = newUser();
    await allowance.consume(holder(user, 'f@example.org'), 'crashed');
    now = new Date('2026-06-03T08:30:00Z');
    await allowance.consume(holder(user, 'f@example.org'), 'running');
    // An hour is longer than any run lasts; until then, the run may still end.
    now = new Date('2026-06-03T09:00:00Z');
    expect(await allowance.stats(holder(user, 'f@example.org'))).toMatchObject({
      freeDebatesRemaining: 0,
      totalDebates: 2,
    });
    now = new Date('2026-06-03T09:00:01Z');
    expect(await allowance.stats(holder(user, 'f@example.org'))).toMatchObject({
      freeDebatesRemaining: 1,
      totalDebates: 1,
    });
    // Given back once: reading again, or the run's late refund or settlement, changes nothing.
    expect(await allowance.refund(user, 'crashed', NONE)).toBe(false);
    expect(await allowance.settle(user, 'crashed', NONE)).toBe(false);
    expect((await allowance.stats(holder(user, 'f@example.org'))).freeDebatesRemaining).toBe(1);
    // The other run settles normally and stays counted.
    expect(await allowance.settle(user, 'running', NONE)).toBe(true);
    now = new Date('2026-06-04T08:00:00Z');
    expect(await allowance.stats(holder(user, 'f@example.org'))).toMatchObject({
      freeDebatesRemaining: 1,
      totalDebates: 1,
    });
  });

  it('counts a run opened before start times were kept from the last debate started', async () => {
    now = new Date('2026-06-05T08:00:00Z');
    const user = newUser();
    await allowance.consume(holder(user, 'g@example.org'), 'old');
    await connection
      .collection('debateUsage')
      .updateOne({ _id: user as never }, { $unset: { openRunsTakenAt: 1 } });
    now = new Date('2026-06-05T08:59:00Z');
    expect((await allowance.stats(holder(user, 'g@example.org'))).freeDebatesRemaining).toBe(1);
    now = new Date('2026-06-05T09:01:00Z');
    expect((await allowance.stats(holder(user, 'g@example.org'))).freeDebatesRemaining).toBe(2);
  });

  it('takes one debate per run id, however often the run asks', async () => {
    now = new Date('2026-06-02T08:00:00Z');
    const user = newUser();
    expect(await allowance.consume(holder(user, 'e@example.org'), 'same')).toEqual({
      granted: true,
      freeDebatesRemaining: 1,
    });
    // Asked again (a retry whose answer was lost): it has its debate, and no other is taken.
    expect(await allowance.consume(holder(user, 'e@example.org'), 'same')).toEqual({
      granted: true,
      freeDebatesRemaining: 1,
    });
    expect(await allowance.stats(holder(user, 'e@example.org'))).toMatchObject({
      freeDebatesRemaining: 1,
      totalDebates: 1,
    });
  });

  it('starts at most 5 debates of a user in any minute, and refuses the 6th taking nothing', async () => {
    const start = new Date('2026-06-03T08:00:00Z').getTime();
    const user = newUser();
    // The test account: 100 a day, so only the limit can refuse.
    for (let i = 0; i < 5; i += 1) {
      now = new Date(start + i * 10_000);
      expect((await allowance.consume(holder(user, TEST_ACCOUNT), `run-${i}`)).granted).toBe(true);
    }
    now = new Date(start + 59_000);
    expect(await allowance.consume(holder(user, TEST_ACCOUNT), 'run-5')).toEqual({
      granted: false,
      reason: 'rate_limited',
      freeDebatesRemaining: 95,
    });
    // A minute after the first start, its slot is free again; the second's is not yet.
    now = new Date(start + 60_000);
    expect(await allowance.consume(holder(user, TEST_ACCOUNT), 'run-5')).toEqual({
      granted: true,
      freeDebatesRemaining: 94,
    });
    now = new Date(start + 65_000);
    expect((await allowance.consume(holder(user, TEST_ACCOUNT), 'run-6')).granted).toBe(false);
    now = new Date(start + 70_000);
    expect((await allowance.consume(holder(user, TEST_ACCOUNT), 'run-6')).granted).toBe(true);
    expect(await allowance.stats(holder(user, TEST_ACCOUNT))).toMatchObject({
      freeDebatesRemaining: 93,
      totalDebates: 7,
      lastDebateStarted: new Date(start + 70_000).toISOString(),
    });
    // Another user is not held back by this one.
    expect((await allowance.consume(holder(newUser(), TEST_ACCOUNT), 'run-0')).granted).toBe(true);
  });

  it('starts exactly 5 of 20 parallel starts of one user', async () => {
    now = new Date('2026-06-04T08:00:00Z');
    const user = newUser();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        allowance.consume(holder(user, TEST_ACCOUNT), `run-${i}`),
      ),
    );
    expect(answers.filter((answer) => answer.granted)).toHaveLength(5);
    expect(
      answers.filter((answer) => !answer.granted && answer.reason === 'rate_limited'),
    ).toHaveLength(15);
    expect(await allowance.stats(holder(user, TEST_ACCOUNT))).toMatchObject({
      freeDebatesRemaining: 95,
      totalDebates: 5,
    });
  });

  it('says no free debates are left before it says too many were started', async () => {
    now = new Date('2026-06-05T08:00:00Z');
    const limited = allowanceWith(2);
    const user = newUser();
    expect((await limited.consume(holder(user, 'h@example.org'), 'r1')).granted).toBe(true);
    expect((await limited.consume(holder(user, 'h@example.org'), 'r2')).granted).toBe(true);
    expect(await limited.consume(holder(user, 'h@example.org'), 'r3')).toEqual({
      granted: false,
      reason: 'no_free_debates',
      freeDebatesRemaining: 0,
    });
  });
});
