// Signing in with e-mail and password: each iteration creates an account, signs in to it again
// and reads its profile with the access token it got.
//   k6 run -e BASE_URL=http://localhost:3000 deploy/k6/sign-in.ts
import { check } from 'k6';
import type { Options } from 'k6/options';
import { gql, THRESHOLDS } from './lib/graphql.ts';
import { numberSetting, setting } from './lib/settings.ts';
import { STEADY, steadyOptions } from './lib/steady.ts';

const VUS = numberSetting('VUS', 10, 2);

export const options: Options = STEADY
  ? steadyOptions('sign_in', 30)
  : {
      scenarios: {
        sign_in: {
          executor: 'ramping-vus',
          startVUs: 1,
          stages: [
            { duration: setting('RAMP', '20s', '5s'), target: VUS },
            { duration: setting('DURATION', '40s', '10s'), target: VUS },
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
  if (!token) return;
  const me = gql<{ me: { email: string } | null }>('{ me { id email } }', {}, token);
  check(me, { 'the token is the account signed in': (r) => r.data?.me?.email === email });
}
