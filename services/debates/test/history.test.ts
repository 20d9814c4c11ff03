import { type DebateCategory, debatesContracts, type RequestOf } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { DebatesServiceModule } from '../src/index.js';
import { GenerationStandIn } from './generation-stand-in.js';

type ListRequest = RequestOf<typeof debatesContracts.list>;

/** Ada's debates, saved in this order. */
const saved: ReadonlyArray<readonly [string, DebateCategory[]]> = [
  ['Should cities ban cars?', ['Politics', 'Environment']],
  ['Is C++ better than Rust?', ['Technology']],
  ['Should (a+b) be taught early?', ['Science']],
  ['Does art need an audience?', ['Culture', 'Philosophy']],
  ['Should cars drive themselves?', ['Technology', 'Ethics']],
];

// A user's history: their saved debates, searched, filtered, sorted and paged by the service.
describe("a user's saved debates", () => {
  const generation = new GenerationStandIn();
  let debates: ServiceUnderTest;

  const list = (request: Partial<ListRequest> = {}) =>
    debates.client.request(debatesContracts.list, {
      userId: 'ada',
      order: 'newest',
      limit: 50,
      ...request,
    });
  const topics = async (request: Partial<ListRequest> = {}) =>
    (await list(request)).debates.map((debate) => debate.topic);

  beforeAll(async () => {
    debates = await startServiceUnderTest({
      service: 'debates',
      register: (runtime) => DebatesServiceModule.register(runtime),
      standIns: { generation: generation.module() },
    });
    const save = (userId: string, topic: string, categories: DebateCategory[]) =>
      debates.client.request(debatesContracts.save, {
        userId,
        userDisplayName: null,
        isPro: false,
        runId: generation.finish(userId, topic).runId,
        categories,
      });
    for (const [topic, categories] of saved) {
      await save('ada', topic, categories);
      // Each saved at a time of its own, so that newest and oldest are unambiguous.
      await sleep(5);
    }
    await save('bo', 'Should cities ban cars? (Bo)', ['Politics']);
  });

  afterAll(async () => {
    await debates?.stop();
  });

  it('lists newest first, or oldest first, with the total', async () => {
    const newest = await list();
    expect(newest.total).toBe(5);
    expect(newest.next).toBeNull();
    expect(newest.debates.map((debate) => debate.topic)).toEqual(
      saved.map(([topic]) => topic).reverse(),
    );
    expect(await topics({ order: 'oldest' })).toEqual(saved.map(([topic]) => topic));
    for (const debate of newest.debates) expect(debate.userId).toBe('ada');
  });

  it('searches the topics for the text as written, whatever its case', async () => {
    expect(await topics({ search: 'CARS' })).toEqual([
      'Should cars drive themselves?',
      'Should cities ban cars?',
    ]);
    expect(await topics({ search: 'c++' })).toEqual(['Is C++ better than Rust?']);
    expect(await topics({ search: '(a+b)' })).toEqual(['Should (a+b) be taught early?']);
    // Not a regular expression.
    expect((await list({ search: '.*' })).total).toBe(0);
    expect(await topics({ search: '   ' })).toHaveLength(5);
  });

  it('filters by category, with the search and in either order', async () => {
    const technology = await list({ category: 'Technology' });
    expect(technology.total).toBe(2);
    expect(technology.debates.map((debate) => debate.topic)).toEqual([
      'Should cars drive themselves?',
      'Is C++ better than Rust?',
    ]);
    expect(await topics({ category: 'Technology', order: 'oldest' })).toEqual([
      'Is C++ better than Rust?',
      'Should cars drive themselves?',
    ]);
    expect(await topics({ category: 'Technology', search: 'cars' })).toEqual([
      'Should cars drive themselves?',
    ]);
    expect((await list({ category: 'Funny' })).total).toBe(0);
  });

  it('pages through the list, each debate once, in order, whatever the order', async () => {
    for (const order of ['newest', 'oldest'] as const) {
      const whole = await topics({ order });
      const paged: string[] = [];
      let after: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const reply = await list({ order, limit: 2, ...(after ? { after } : {}) });
        expect(reply.total).toBe(5);
        expect(reply.debates.length).toBeLessThanOrEqual(2);
        paged.push(...reply.debates.map((debate) => debate.topic));
        if (!reply.next) break;
        after = reply.next;
      }
      expect([order, paged]).toEqual([order, whole]);
    }
    // A page of a filtered list stays within the filter.
    const first = await list({ category: 'Technology', limit: 1 });
    expect(first.next).not.toBeNull();
    const second = await list({ category: 'Technology', limit: 1, after: first.next ?? '' });
    expect(second.debates.map((debate) => debate.topic)).toEqual(['Is C++ better than Rust?']);
    expect(second.next).toBeNull();
  });

  it('shows each user their own debates only, and reads one for its owner alone', async () => {
    const bos = await list({ userId: 'bo' });
    expect(bos.debates.map((debate) => debate.topic)).toEqual(['Should cities ban cars? (Bo)']);
    const [adas] = (await list({ limit: 1 })).debates;
    const debateId = adas?.id ?? '';
    expect(await debates.client.request(debatesContracts.get, { userId: 'ada', debateId })).toEqual(
      { debate: adas },
    );
    expect(await debates.client.request(debatesContracts.get, { userId: 'bo', debateId })).toEqual({
      debate: null,
    });
    expect(
      await debates.client.request(debatesContracts.get, { userId: 'ada', debateId: 'none' }),
    ).toEqual({ debate: null });
  });
});
