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
import { recordWrite, STEADY, steadyOptions } from './lib/steady.ts';

const VOTERS = numberSetting('VOTERS', 50, 5);
const DEBATES = numberSetting('DEBATES', 5, 3);

export const options: Options = STEADY
  ? steadyOptions('voting_storm', 30)
  : {
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
  // The fault run's VUs each make a voter of their own (below).
  const tokens = STEADY ? [] : Array.from({ length: VOTERS }, (_, i) => signUp(`voter-${i}`));
  return { tokens, debateIds };
}

const KINDS = ['FOR', 'AGAINST', 'INTERESTING', null] as const;

/**
 * In the fault run, the VU's own voter, made on its first iteration: a constant arrival rate
 * gives a scenario VUs whose ids are not in a row, and one voter's votes must reach the platform
 * one after another, so that the last one acknowledged is the one the store keeps.
 */
let own: { token: string; id: string; since: number } | undefined;
/** A voter's access token lasts 5 minutes: a new voter well before, rather than a refresh. */
const VOTER_FOR_MS = 4 * 60_000;
function steadyVoter(): { token: string; id: string } | undefined {
  if (own && Date.now() - own.since < VOTER_FOR_MS) return own;
  const token = signUp('voter');
  const id = token ? gql<{ me: { id: string } }>('{ me { id } }', {}, token).data?.me.id : '';
  if (id) own = { token, id, since: Date.now() };
  return own;
}

export default function vote(data: Setup): void {
  const voter = STEADY
    ? steadyVoter()
    : { token: data.tokens[(exec.vu.idInTest - 1) % data.tokens.length] ?? '', id: '' };
  if (!voter) return;
  const { token } = voter;
  const debateId = pick(data.debateIds);
  if (Math.random() < 0.1) {
    recordWrite({ w: 'star', voter: voter.id, debate: debateId, value: null }, 'asked');
    const starred = gql<{ toggleStar: boolean }>(
      'mutation ($id: String!) { toggleStar(debateId: $id) }',
      { id: debateId },
      token,
    ).data?.toggleStar;
    if (typeof starred === 'boolean') {
      recordWrite({ w: 'star', voter: voter.id, debate: debateId, value: starred }, 'acknowledged');
    }
    return;
  }
  const kind = pick(KINDS);
  const write = { w: 'vote', voter: voter.id, debate: debateId, value: kind } as const;
  recordWrite(write, 'asked');
  const voted = gql<{ vote: { myVote: string | null } }>(
    'mutation ($id: String!, $kind: VoteKind) { vote(debateId: $id, kind: $kind) { upvotes myVote } }',
    { id: debateId, kind },
    token,
  ).data?.vote;
  if (voted) recordWrite({ ...write, value: voted.myVote }, 'acknowledged');
}
