import {
  type Debate,
  debateSharedEvent,
  debatesContracts,
  debateUnsharedEvent,
  type SharedDebate,
} from '@debate/contracts';
import { eventually, type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DebatesServiceModule } from '../src/index.js';
import { GenerationStandIn } from './generation-stand-in.js';

// Sharing announces a debate to the community through the event log; the owner alone decides.
describe('sharing a debate', () => {
  const generation = new GenerationStandIn();
  let debates: ServiceUnderTest;
  let shared: ReadonlyArray<{ debate: SharedDebate }>;
  let unshared: ReadonlyArray<{ debateId: string; at: string }>;

  const sharedOf = (debateId: string) => shared.filter((event) => event.debate.id === debateId);
  const unsharedOf = (debateId: string) => unshared.filter((event) => event.debateId === debateId);

  /** A new debate of `userId`'s, private, saved while they were PRO or not. */
  const saveOne = async (userId: string, topic: string, isPro = false): Promise<Debate> => {
    const saved = await debates.client.request(debatesContracts.save, {
      userId,
      userDisplayName: 'Ada',
      isPro,
      runId: generation.finish(userId, topic).runId,
      categories: ['Society'],
    });
    if (!saved.saved) throw new Error(saved.message);
    return saved.debate;
  };
  const own = (debateId: string, userId = 'ada') => ({ userId, debateId });

  beforeAll(async () => {
    debates = await startServiceUnderTest({
      service: 'debates',
      register: (runtime) => DebatesServiceModule.register(runtime),
      standIns: { generation: generation.module() },
    });
    shared = await debates.record(debateSharedEvent);
    unshared = await debates.record(debateUnsharedEvent);
  });

  afterAll(async () => {
    await debates?.stop();
  });

  it('makes a debate public and announces it once, however often it is shared', async () => {
    const debate = await saveOne('ada', 'Should cities ban cars?');
    const { debate: public1 } = await debates.client.request(
      debatesContracts.share,
      own(debate.id),
    );
    expect(public1).toEqual({ ...debate, isPublic: true, sharedAt: expect.any(String) });
    const announced = await eventually(
      async () => sharedOf(debate.id),
      (events) => events.length > 0,
    );
    // Announced with whether its author was PRO when they saved it, for the community's copy.
    expect(announced).toEqual([{ debate: { ...public1, isPro: false } }]);

    // Shared again, at once or later: the same share, announced once.
    const again = await Promise.all(
      Array.from({ length: 4 }, () =>
        debates.client.request(debatesContracts.share, own(debate.id)),
      ),
    );
    for (const reply of again) expect(reply.debate?.sharedAt).toBe(public1?.sharedAt);
    expect(sharedOf(debate.id)).toHaveLength(1);
    expect(await debates.client.request(debatesContracts.get, own(debate.id))).toEqual({
      debate: public1,
    });
  });

  it('keeps whether its author was PRO when they saved it, and announces that with it', async () => {
    const debate = await saveOne('bo', 'Should zoos exist?', true);
    const { debate: shared } = await debates.client.request(
      debatesContracts.share,
      own(debate.id, 'bo'),
    );
    const [announced] = await eventually(
      async () => sharedOf(debate.id),
      (events) => events.length > 0,
    );
    expect(announced).toEqual({ debate: { ...shared, isPro: true } });
  });

  it('makes a debate private again and announces that, then may share it anew', async () => {
    const debate = await saveOne('ada', 'Is homework useful?');
    const first = (await debates.client.request(debatesContracts.share, own(debate.id))).debate;
    const { debate: privateAgain } = await debates.client.request(
      debatesContracts.unshare,
      own(debate.id),
    );
    expect(privateAgain).toEqual({ ...debate, isPublic: false, sharedAt: null });
    const [withdrawn] = await eventually(
      async () => unsharedOf(debate.id),
      (events) => events.length > 0,
    );
    expect(Date.parse(withdrawn?.at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(first?.sharedAt ?? ''),
    );

    // Unsharing a private debate changes and announces nothing.
    expect(await debates.client.request(debatesContracts.unshare, own(debate.id))).toEqual({
      debate: privateAgain,
    });
    expect(unsharedOf(debate.id)).toHaveLength(1);

    // Shared again: a new share, announced with its new time.
    const { debate: second } = await debates.client.request(debatesContracts.share, own(debate.id));
    expect(second?.isPublic).toBe(true);
    expect(Date.parse(second?.sharedAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(withdrawn?.at ?? ''),
    );
    const announced = await eventually(
      async () => sharedOf(debate.id),
      (events) => events.length === 2,
    );
    expect(announced.map((event) => event.debate.sharedAt)).toEqual([
      first?.sharedAt,
      second?.sharedAt,
    ]);
  });

  it('deletes a debate, taking a shared one back from the community', async () => {
    const debate = await saveOne('ada', 'Should zoos exist?');
    await debates.client.request(debatesContracts.share, own(debate.id));
    expect(await debates.client.request(debatesContracts.delete, own(debate.id))).toEqual({
      deleted: true,
    });
    await eventually(
      async () => unsharedOf(debate.id),
      (events) => events.length === 1,
    );
    expect(await debates.client.request(debatesContracts.get, own(debate.id))).toEqual({
      debate: null,
    });
    const { debates: history } = await debates.client.request(debatesContracts.list, {
      userId: 'ada',
      order: 'newest',
      limit: 50,
    });
    expect(history.map((kept) => kept.id)).not.toContain(debate.id);
    // Gone: it can be neither deleted again nor shared.
    expect(await debates.client.request(debatesContracts.delete, own(debate.id))).toEqual({
      deleted: false,
    });
    expect(await debates.client.request(debatesContracts.share, own(debate.id))).toEqual({
      debate: null,
    });
    expect(sharedOf(debate.id)).toHaveLength(1);
  });

  it('deletes a debate that was never shared without a word to the community', async () => {
    const debate = await saveOne('ada', 'Can a machine think?');
    expect(await debates.client.request(debatesContracts.delete, own(debate.id))).toEqual({
      deleted: true,
    });
    expect(await debates.client.request(debatesContracts.get, own(debate.id))).toEqual({
      debate: null,
    });
    expect(unsharedOf(debate.id)).toEqual([]);
  });

  it("never lets another user read, share, unshare or delete someone's debate", async () => {
    const debate = await saveOne('ada', 'Should voting be compulsory?');
    const asEve = own(debate.id, 'eve');
    expect(await debates.client.request(debatesContracts.get, asEve)).toEqual({ debate: null });
    expect(await debates.client.request(debatesContracts.share, asEve)).toEqual({
      debate: null,
    });
    expect(await debates.client.request(debatesContracts.delete, asEve)).toEqual({
      deleted: false,
    });
    expect(await debates.client.request(debatesContracts.get, own(debate.id))).toEqual({
      debate,
    });
    // Shared by its owner, it still cannot be unshared by anyone else.
    const { debate: shared } = await debates.client.request(debatesContracts.share, own(debate.id));
    expect(await debates.client.request(debatesContracts.unshare, asEve)).toEqual({
      debate: null,
    });
    expect(await debates.client.request(debatesContracts.delete, asEve)).toEqual({
      deleted: false,
    });
    expect(await debates.client.request(debatesContracts.get, own(debate.id))).toEqual({
      debate: shared,
    });
    expect(unsharedOf(debate.id)).toEqual([]);
  });
});
