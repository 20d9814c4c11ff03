import {
  communityDebateContracts,
  debateSharedEvent,
  debateUnsharedEvent,
  type RankingSort,
  type RequestOf,
  type ResponseOf,
  type SharedDebate,
} from '@debate/contracts';
import { eventually, type ServiceUnderTest, sharedDebateOf } from '@debate/testing';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A time `ms` ago, as the contracts write times. */
export const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();

/**
 * A shared debate as the debates service announces it: the tests' common one, by Ada, shared a
 * minute ago, the offline speaker against GPT-3.5 (saved before provenance was kept); `fields`
 * override.
 */
export function debateOf(id: string, fields: Partial<SharedDebate> = {}): SharedDebate {
  return sharedDebateOf(id, {
    userDisplayName: 'Ada',
    timestamp: ago(10 * DAY),
    sharedAt: ago(MINUTE),
    model2: { ...sharedDebateOf(id).model2, name: 'gpt-3.5-turbo', writtenBy: null },
    ...fields,
  });
}

/** The public copy of a debate, as a reader's fetch gets it (no view counted). */
export function publicCopy(community: ServiceUnderTest, debateId: string) {
  return community.client
    .request(communityDebateContracts.get, { debateId, countView: false })
    .then((reply) => reply.debate);
}

/** Announces `debate` as the debates service does, and waits until the community shows it. */
export async function share(community: ServiceUnderTest, debate: SharedDebate): Promise<void> {
  await community.events.publish(
    debateSharedEvent,
    { debate },
    `shared:${debate.id}:${debate.sharedAt}`,
  );
  await eventually(
    () => publicCopy(community, debate.id),
    (copy) => copy?.sharedAt === debate.sharedAt,
  );
}

/** Announces that `debateId` is no longer public, and waits until the community hides it. */
export async function unshare(
  community: ServiceUnderTest,
  debateId: string,
  at = new Date().toISOString(),
): Promise<void> {
  await community.events.publish(
    debateUnsharedEvent,
    { debateId, at },
    `unshared:${debateId}:${at}`,
  );
  await eventually(
    () => publicCopy(community, debateId),
    (copy) => copy === null,
  );
}

type RankRequest = RequestOf<typeof communityDebateContracts.rank>;
type RankPage = Exclude<ResponseOf<typeof communityDebateContracts.rank>, { invalid: 'cursor' }>;

/** A page of the ranking (by default: everything, most recent first, for a visitor in UTC). */
export async function rank(
  community: ServiceUnderTest,
  request: Partial<RankRequest> & { sort?: RankingSort } = {},
): Promise<RankPage> {
  const reply = await community.client.request(communityDebateContracts.rank, {
    sort: 'recent',
    period: 'all',
    utcOffsetMinutes: 0,
    starredOnly: false,
    limit: 50,
    ...request,
  });
  if ('invalid' in reply) throw new Error(reply.message);
  return reply;
}

/** The ids of a ranking page. */
export async function rankedIds(
  community: ServiceUnderTest,
  request: Partial<RankRequest> = {},
): Promise<string[]> {
  return (await rank(community, request)).debates.map((debate) => debate.id);
}
