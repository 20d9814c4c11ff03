// A voting storm: many signed-in users voting, changing and removing votes, and starring, on
// the same few public debates at once. Needs shared debates (share a few first, or run
// bench:community's seeding).
//   k6 run -e BASE_URL=http://localhost:3000 -e VOTERS=50 deploy/k6/voting-storm.ts
import { fail } from 'k6';
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import { gql, pick, RANKING, signUp, THRESHOLDS } from './lib/graphql.ts';

const VOTERS = Number(__ENV['VOTERS'] ?? 50);

export const options: Options = {
  setupTimeout: '5m',
  scenarios: {
    voting_storm: {
      executor: 'constant-vus',
      vus: VOTERS,
      duration: __ENV['DURATION'] ?? '1m',
    },
  },
  thresholds: {
    ...THRESHOLDS,
    'http_req_duration{scenario:voting_storm}': ['p(95)<500'],
  },
};

interface Setup {
  readonly tokens: string[];
  readonly debateIds: string[];
}

export function setup(): Setup {
  const page = gql<{ communityDebates: { debates: Array<{ id: string }> } }>(RANKING, {
    sort: 'MOST_RECENT',
    period: 'ALL_TIME',
  });
  const debateIds = (page.data?.communityDebates.debates ?? []).slice(0, 5).map((d) => d.id);
  if (debateIds.length === 0) fail('No shared debates to vote on: share some first');
  const tokens = Array.from({ length: VOTERS }, (_, i) => signUp(`voter-${i}`));
  return { tokens, debateIds };
}

const KINDS = ['FOR', 'AGAINST', 'INTERESTING', null] as const;

export default function vote(data: Setup): void {
  const token = data.tokens[(exec.vu.idInTest - 1) % data.tokens.length] ?? '';
  const debateId = pick(data.debateIds);
  if (Math.random() < 0.1) {
    gql('mutation ($id: String!) { toggleStar(debateId: $id) }', { id: debateId }, token);
    return;
  }
  gql(
    'mutation ($id: String!, $kind: VoteKind) { vote(debateId: $id, kind: $kind) { upvotes myVote } }',
    { id: debateId, kind: pick(KINDS) },
    token,
  );
}
