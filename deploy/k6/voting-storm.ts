// A voting storm: many signed-in users voting, changing and removing votes, and starring, on
// the same few public debates at once. It votes on the newest shared debates; when fewer than
// DEBATES are shared (a fresh store), setup has new users write, save and share the rest first.
//   k6 run -e BASE_URL=http://localhost:3000 -e VOTERS=50 deploy/k6/voting-storm.ts
import { fail } from 'k6';
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import { ensureSharedDebates } from './lib/debate.ts';
import { gql, pick, signUp, THRESHOLDS } from './lib/graphql.ts';
import { numberSetting, setting } from './lib/settings.ts';

const VOTERS = numberSetting('VOTERS', 50, 5);
const DEBATES = numberSetting('DEBATES', 5, 3);

export const options: Options = {
  setupTimeout: '5m',
  scenarios: {
    voting_storm: {
      executor: 'constant-vus',
      vus: VOTERS,
      duration: setting('DURATION', '1m', '15s'),
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

export async function setup(): Promise<Setup> {
  const debateIds = await ensureSharedDebates(DEBATES);
  if (debateIds.length === 0) fail('No shared debates to vote on, and none could be shared');
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
