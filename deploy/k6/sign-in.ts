// Signing in: each iteration creates an account, signs out, and signs in again.
//   k6 run -e BASE_URL=http://localhost:3000 deploy/k6/sign-in.ts
import type { Options } from 'k6/options';
import { gql, THRESHOLDS } from './lib/graphql.ts';

export const options: Options = {
  scenarios: {
    sign_in: {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [
        { duration: __ENV['RAMP'] ?? '20s', target: Number(__ENV['VUS'] ?? 10) },
        { duration: __ENV['DURATION'] ?? '40s', target: Number(__ENV['VUS'] ?? 10) },
      ],
    },
  },
  thresholds: {
    ...THRESHOLDS,
    // Passwords are hashed with argon2id on purpose: sign-in is the slowest operation.
    'http_req_duration{scenario:sign_in}': ['p(95)<1500'],
  },
};

const CREDENTIALS = 'mutation ($email: String!, $password: String!)';

export default function signIn(): void {
  const email = `k6-${__VU}-${__ITER}-${Date.now()}@k6.example.org`;
  const password = 'k6 load test password';
  gql(`${CREDENTIALS} { signUp(email: $email, password: $password) { accessToken } }`, {
    email,
    password,
  });
  const again = gql<{ signIn: { accessToken: string } }>(
    `${CREDENTIALS} { signIn(email: $email, password: $password) { accessToken } }`,
    { email, password },
  );
  const token = again.data?.signIn.accessToken;
  if (token) gql('{ me { id email } }', {}, token);
}
