import { communityDebateContracts, type RequestOf } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { DAY, debateOf, publicCopy, rank, share } from './fixtures.js';

type Reader = Pick<RequestOf<typeof communityDebateContracts.get>, 'viewerId' | 'readerAddress'>;

// A debate's views: one per reader (the account, or the address when signed out) and UTC day,
// on a clock the test moves.
describe('the views of a public debate', () => {
  let community: ServiceUnderTest;
  let now = new Date('2026-11-27T10:00:00Z');

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register({ ...runtime, clock: () => now }),
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  const read = (debateId: string, reader: Reader) =>
    community.client.request(communityDebateContracts.get, {
      debateId,
      countView: true,
      ...reader,
    });
  const views = async (debateId: string) => (await publicCopy(community, debateId))?.views;

  it('counts the same reader once however often they read, and each reader once', async () => {
    await share(community, debateOf('v1'));
    const ada = { viewerId: 'ada' };
    for (let i = 0; i < 10; i += 1) await read('v1', ada);
    expect(await views('v1')).toBe(1);
    // Ten at once, too.
    await Promise.all(Array.from({ length: 10 }, () => read('v1', { viewerId: 'bob' })));
    expect(await views('v1')).toBe(2);
    // The reader's own answer shows the view counted.
    expect((await read('v1', { viewerId: 'cyd' })).debate?.views).toBe(3);
    // A look that is not a reading (a share's page preview) counts none.
    await community.client.request(communityDebateContracts.get, {
      debateId: 'v1',
      countView: false,
    });
    expect(await views('v1')).toBe(3);
    // The ranking's cards show them too.
    const { debates } = await rank(community);
    expect(debates.find((debate) => debate.id === 'v1')?.views).toBe(3);
  });

  it('counts a signed-out reader once by address; another address, or an account, apart', async () => {
    await share(community, debateOf('v2'));
    for (let i = 0; i < 10; i += 1) await read('v2', { readerAddress: '203.0.113.7' });
    expect(await views('v2')).toBe(1);
    await read('v2', { readerAddress: '2001:db8:0:1::/64' });
    expect(await views('v2')).toBe(2);
    // An account named as an address is not that address's reader, nor the other way round.
    await read('v2', { viewerId: '203:0:113:7' });
    await read('v2', { readerAddress: '203:0:113:7' });
    expect(await views('v2')).toBe(4);
  });

  it('counts the same readers again the next UTC day', async () => {
    await share(community, debateOf('v3'));
    await read('v3', { viewerId: 'ada' });
    await read('v3', { readerAddress: '203.0.113.7' });
    expect(await views('v3')).toBe(2);
    now = new Date(now.getTime() + DAY);
    await read('v3', { viewerId: 'ada' });
    await read('v3', { viewerId: 'ada' });
    await read('v3', { readerAddress: '203.0.113.7' });
    expect(await views('v3')).toBe(4);
    // The day before's marks are gone: that day's reader, read again on it, would count anew.
    now = new Date(now.getTime() - DAY);
    await read('v3', { viewerId: 'ada' });
    expect(await views('v3')).toBe(5);
  });

  it("counts no view without a reader (a last version's gateway), nor of a debate not public", async () => {
    await share(community, debateOf('v4'));
    // The gateway of the last version asks so: answered, the debate as it is, no view counted.
    const answer = await community.client.request(communityDebateContracts.get, {
      debateId: 'v4',
      countView: true,
    });
    expect(answer.debate?.id).toBe('v4');
    expect(answer.debate?.views).toBe(0);
    expect(answer.viewer).toBeNull();
    expect(await views('v4')).toBe(0);
    expect(await read('no-such-debate', { viewerId: 'ada' })).toEqual({
      debate: null,
      viewer: null,
      pair: null,
    });
  });
});
