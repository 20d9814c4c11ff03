import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { recordRequest } from './steady.ts';

/** The gateway under test: `k6 run -e BASE_URL=https://debate.example.org …`. */
export const BASE_URL = (__ENV['BASE_URL'] ?? 'http://localhost:3000').replace(/\/$/, '');

/** GraphQL answers that carried `errors`: any at all fails the run (see THRESHOLDS). */
export const graphqlErrors = new Counter('graphql_errors');

/** What every scenario holds to: a breach makes `k6 run` exit non-zero. */
export const THRESHOLDS = {
  http_req_failed: ['rate<0.01'],
  checks: ['rate>0.99'],
  graphql_errors: ['count<1'],
};

/** How many errors each VU writes out in full: enough to tell why a run failed, no flood. */
const REPORTED_ERRORS = 2;
let reported = 0;

/** Writes an error out (the first few of each VU), so that a failed run says what went wrong. */
export function report(message: string): void {
  reported += 1;
  if (reported <= REPORTED_ERRORS) console.warn(`VU ${__VU}: ${message.slice(0, 500)}`);
}

function rootField(query: string): string {
  return /\{\s*(\w+)/.exec(query)?.[1] ?? 'unknown';
}

export interface GraphqlResult<T> {
  readonly data?: T;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

/** POSTs one operation; counts GraphQL errors and checks the answer. */
export function gql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  tags: Record<string, string> = {},
): GraphqlResult<T> {
  const op = rootField(query);
  const startedAt = Date.now();
  const response = http.post(`${BASE_URL}/graphql`, JSON.stringify({ query, variables }), {
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    // The root field (signUp, startDebate, vote…) as a tag: k6 --out can tell them apart.
    tags: { op, ...tags },
  });
  let body: GraphqlResult<T> = {};
  try {
    body = response.json() as GraphqlResult<T>;
  } catch {
    body = { errors: [{ message: `not JSON (${response.status})` }] };
  }
  const failed = !!body.errors && body.errors.length > 0;
  recordRequest(
    op,
    startedAt,
    response.status === 200 && !failed,
    undefined,
    `${response.status} ${body.errors?.[0]?.extensions?.code ?? ''} ${body.errors?.[0]?.message ?? ''}`,
  );
  if (failed) {
    graphqlErrors.add(1, tags);
    report(`${op} answered ${response.status}: ${JSON.stringify(body.errors)}`);
  }
  check(response, {
    'status is 200': (r) => r.status === 200,
    'no GraphQL errors': () => !body.errors || body.errors.length === 0,
  });
  return body;
}

const SIGN_UP = `mutation ($email: String!, $password: String!) {
  signUp(email: $email, password: $password) { accessToken }
}`;

/** Creates an account (unique e-mail per call): its address and access token ('' if refused). */
export function signUpAs(prefix: string): { email: string; token: string } {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e9)}@k6.example.org`;
  const result = gql<{ signUp: { accessToken: string } }>(SIGN_UP, {
    email,
    password: 'k6 load test password',
  });
  return { email, token: result.data?.signUp.accessToken ?? '' };
}

/** Creates an account and returns its access token (unique e-mail per call). */
export function signUp(prefix: string): string {
  return signUpAs(prefix).token;
}

export const RANKING = `query ($sort: RankingSort, $period: RankingPeriod, $category: String) {
  communityDebates(sort: $sort, period: $period, category: $category, limit: 10) {
    debates { id topic upvotes downvotes interesting myVote starred } next
  }
}`;

export function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)] as T;
}
