import { usageContracts, userCreatedEvent } from '@debate/contracts';
import { eventually, type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UsageServiceModule } from '../src/index.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// The usage service alone, on a clock the tests move: the rules read no other time.
describe('the free-debate allowance', () => {
  let now = new Date('2030-03-11T09:00:00.000Z');
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  let usage: ServiceUnderTest;

  /** A user whose address the realm has verified. */
  const person = (name: string) => ({
    userId: name,
    email: `${name}@example.org`,
    emailVerified: true,
  });
  const stats = (name: string) => usage.client.request(usageContracts.stats, person(name));
  const consume = (name: string, runId: string) =>
    usage.client.request(usageContracts.consume, { ...person(name), runId });
  const noTokens = { tokensIn: 0, tokensOut: 0 };
  const refund = (name: string, runId: string) =>
    usage.client.request(usageContracts.refund, { userId: name, runId, ...noTokens });
  const settle = (name: string, runId: string, tokens = noTokens) =>
    usage.client.request(usageContracts.settle, { userId: name, runId, ...tokens });

  beforeAll(async () => {
    usage = await startServiceUnderTest({
      service: 'usage',
      register: (runtime) =>
        UsageServiceModule.register({
          ...runtime,
          clock: () => now,
          // Written as an operator might: the account is matched whatever its case.
          testAccountEmail: ' Tester@Example.org ',
          testAccountId: 'tester-by-id',
          startsPerMinute: 3,
          abandonedRunAfterMs: 10 * MINUTE,
        }),
    });
  });

  afterAll(async () => {
    await usage?.stop();
  });

  it('gives a new user 2 free debates, one taken per run, and refuses a third', async () => {
    expect(await stats('ada')).toEqual({
      freeDebatesRemaining: 2,
      totalDebates: 0,
      lastDebateStarted: null,
      nextFreeDebateAt: null,
      createdAt: now.toISOString(),
      tokensIn: 0,
      tokensOut: 0,
    });
    expect(await consume('ada', 'run-1')).toEqual({ granted: true, freeDebatesRemaining: 1 });
    // A retry whose answer was lost takes nothing more.
    expect(await consume('ada', 'run-1')).toEqual({ granted: true, freeDebatesRemaining: 1 });
    expect(await consume('ada', 'run-2')).toEqual({ granted: true, freeDebatesRemaining: 0 });
    expect(await consume('ada', 'run-3')).toEqual({
      granted: false,
      reason: 'no_free_debates',
      freeDebatesRemaining: 0,
    });
    expect(await stats('ada')).toMatchObject({
      freeDebatesRemaining: 0,
      totalDebates: 2,
      lastDebateStarted: now.toISOString(),
    });
  });

  it('sets up a user the identity service announces, dated when they signed up', async () => {
    const signedUp = '2030-01-05T10:00:00.000Z';
    await usage.events.publish(
      userCreatedEvent,
      { userId: 'bo', email: 'bo@example.org', createdAt: signedUp },
      'user:bo',
    );
    const record = await eventually(
      () => stats('bo'),
      (value) => value.createdAt === signedUp,
    );
    expect(record).toEqual({
      freeDebatesRemaining: 2,
      totalDebates: 0,
      lastDebateStarted: null,
      nextFreeDebateAt: null,
      createdAt: signedUp,
      tokensIn: 0,
      tokensOut: 0,
    });
    // Announced again (another event), the user is not set up twice.
    await consume('bo', 'bo-run');
    await usage.events.publish(
      userCreatedEvent,
      { userId: 'bo', email: 'bo@example.org', createdAt: now.toISOString() },
      'user:bo:again',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await stats('bo')).toMatchObject({ freeDebatesRemaining: 1, createdAt: signedUp });
  });

  it('gives back the debate of a failed run once, and never that of a completed run', async () => {
    await consume('cy', 'failed');
    await consume('cy', 'completed');
    expect(await refund('cy', 'failed')).toEqual({ refunded: true });
    expect(await refund('cy', 'failed')).toEqual({ refunded: false });
    const used = { tokensIn: 2048, tokensOut: 512 };
    expect(await settle('cy', 'completed', used)).toEqual({ settled: true });
    expect(await settle('cy', 'completed', used)).toEqual({ settled: false });
    expect(await refund('cy', 'completed')).toEqual({ refunded: false });
    // Another user cannot give someone's debate back.
    await consume('cy', 'open');
    expect(await refund('eve', 'open')).toEqual({ refunded: false });
    // The completed run is the user's last debate (a failed one never is).
    expect(await usage.client.request(usageContracts.lastRun, { userId: 'cy' })).toEqual({
      runId: 'completed',
    });
    expect(await usage.client.request(usageContracts.lastRun, { userId: 'eve' })).toEqual({
      runId: null,
    });
    // The completed run's tokens are the user's, counted once.
    expect(await stats('cy')).toMatchObject({
      freeDebatesRemaining: 0,
      totalDebates: 2,
      tokensIn: 2048,
      tokensOut: 512,
    });
  });

  it('gives back the debate of a run left open longer than a run can last', async () => {
    await consume('dee', 'lost');
    advance(9 * MINUTE);
    expect(await stats('dee')).toMatchObject({ freeDebatesRemaining: 1, totalDebates: 1 });
    advance(2 * MINUTE);
    expect(await stats('dee')).toMatchObject({ freeDebatesRemaining: 2, totalDebates: 0 });
    // Given back once: the run, should it still end, finds nothing to settle or refund.
    expect(await settle('dee', 'lost')).toEqual({ settled: false });
    expect(await refund('dee', 'lost')).toEqual({ refunded: false });
    expect(await stats('dee')).toMatchObject({ freeDebatesRemaining: 2 });
  });

  it('refills one debate six days after the last was taken, when none is left', async () => {
    for (const runId of ['eli-1', 'eli-2']) {
      await consume('eli', runId);
      await settle('eli', runId);
    }
    const taken = now;
    advance(6 * DAY - MINUTE);
    // None left: the account is told when the next one comes, as the refill rule has it.
    expect(await stats('eli')).toMatchObject({
      freeDebatesRemaining: 0,
      totalDebates: 2,
      nextFreeDebateAt: new Date(taken.getTime() + 6 * DAY + 1).toISOString(),
    });
    advance(2 * MINUTE);
    expect(await stats('eli')).toEqual({
      freeDebatesRemaining: 1,
      totalDebates: 2,
      lastDebateStarted: taken.toISOString(),
      nextFreeDebateAt: null,
      createdAt: taken.toISOString(),
      tokensIn: 0,
      tokensOut: 0,
    });
    // Only to one, and only when none is left.
    advance(7 * DAY);
    expect((await stats('eli')).freeDebatesRemaining).toBe(1);
  });

  it('lets a user start 3 debates in any minute, however many arrive at once', async () => {
    // The test account has 100 a day: only the start limit refuses it.
    const tester = 'tester';
    expect((await stats(tester)).freeDebatesRemaining).toBe(100);
    const runs = Array.from({ length: 10 }, (_, index) => `burst-${index}`);
    const answers = await Promise.all(runs.map((runId) => consume(tester, runId)));
    expect(answers.filter((answer) => answer.granted)).toHaveLength(3);
    for (const answer of answers.filter((candidate) => !candidate.granted)) {
      expect(answer).toEqual({
        granted: false,
        reason: 'rate_limited',
        freeDebatesRemaining: 97,
      });
    }
    // The refused ones took nothing.
    expect(await stats(tester)).toMatchObject({ freeDebatesRemaining: 97, totalDebates: 3 });
    advance(59 * 1000);
    expect(await consume(tester, 'too-soon')).toMatchObject({ granted: false });
    advance(2 * 1000);
    expect(await consume(tester, 'next-minute')).toEqual({
      granted: true,
      freeDebatesRemaining: 96,
    });
    // Ended normally: none of them is given back later.
    for (const runId of [...runs, 'next-minute']) await settle(tester, runId);
  });

  it('resets the designated test account to 100 once a day, whatever the case of its address', async () => {
    const tester = { userId: 'tester', email: 'TESTER@example.org', emailVerified: true };
    advance(MINUTE);
    const before = (await usage.client.request(usageContracts.stats, tester)).freeDebatesRemaining;
    expect(before).toBeLessThan(100);
    await usage.client.request(usageContracts.consume, { ...tester, runId: 'daily' });
    await settle(tester.userId, 'daily');
    // Not again the same day (UTC).
    expect((await usage.client.request(usageContracts.stats, tester)).freeDebatesRemaining).toBe(
      before - 1,
    );
    advance(DAY);
    expect((await usage.client.request(usageContracts.stats, tester)).freeDebatesRemaining).toBe(
      100,
    );
    // Anyone else keeps the ordinary allowance.
    expect((await stats('fay')).freeDebatesRemaining).toBe(2);
  });

  it("gives a token with the test account's address but no verified address the ordinary allowance", async () => {
    advance(MINUTE);
    // Anyone can type an address at sign-up: until the realm has verified it, it is only typed.
    const claimant = { userId: 'claimant', email: 'tester@example.org' };
    for (const asked of [{ ...claimant, emailVerified: false }, claimant]) {
      expect((await usage.client.request(usageContracts.stats, asked)).freeDebatesRemaining).toBe(
        2,
      );
    }
    await usage.client.request(usageContracts.consume, { ...claimant, runId: 'claimed' });
    await settle(claimant.userId, 'claimed');
    // Nor the next day.
    advance(DAY);
    expect((await usage.client.request(usageContracts.stats, claimant)).freeDebatesRemaining).toBe(
      1,
    );
  });

  it('matches the test account by its user id too (USAGE_TEST_ACCOUNT_ID), its address verified or not', async () => {
    advance(MINUTE);
    const byId = { userId: 'tester-by-id', email: 'anyone@example.org', emailVerified: false };
    expect((await usage.client.request(usageContracts.stats, byId)).freeDebatesRemaining).toBe(100);
  });
});
