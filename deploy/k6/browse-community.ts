// Browsing the community hub: the ranking query at a constant arrival rate, over every sort,
// period and some categories, then one debate's rounds now and then.
//   k6 run -e BASE_URL=http://localhost:3000 -e RATE=50 deploy/k6/browse-community.ts
import type { Options } from 'k6/options';
import { gql, pick, RANKING, THRESHOLDS } from './lib/graphql.ts';
import { numberSetting, setting } from './lib/settings.ts';
import { STEADY, steadyOptions } from './lib/steady.ts';

export const options: Options = STEADY
  ? steadyOptions('browse', 50)
  : {
      scenarios: {
        browse: {
          executor: 'constant-arrival-rate',
          rate: numberSetting('RATE', 50, 10),
          timeUnit: '1s',
          duration: setting('DURATION', '1m', '15s'),
          preAllocatedVUs: 20,
          maxVUs: 100,
        },
      },
      thresholds: {
        ...THRESHOLDS,
        'http_req_duration{scenario:browse}': ['p(95)<300'],
      },
    };

const SORTS = ['MOST_POPULAR', 'MOST_RECENT', 'MOST_CONTROVERSIAL'] as const;
const PERIODS = ['ALL_TIME', 'TODAY', 'THIS_WEEK', 'THIS_MONTH'] as const;
const CATEGORIES = [null, null, 'Politics', 'Technology', 'Science', 'Ethics'];

export default function browse(): void {
  const page = gql<{ communityDebates: { debates: Array<{ id: string }> } }>(RANKING, {
    sort: pick(SORTS),
    period: pick(PERIODS),
    category: pick(CATEGORIES),
  });
  const debates = page.data?.communityDebates.debates ?? [];
  if (debates.length > 0 && Math.random() < 0.2) {
    gql('query ($id: String!) { communityDebate(id: $id) { rounds { summary } } }', {
      id: pick(debates).id,
    });
  }
}
