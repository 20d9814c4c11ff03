// Abuse benchmark: what a flood of sign-ups does to everybody else's requests. The platform as
// `npm start` runs it (one process, the embedded issuer hashing passwords with argon2), its
// gateway's rate limits as shipped; the ordinary requests (the engine's catalog and the
// community ranking, open-loop at a fixed rate) come from one loopback address, the flood from
// another, or from a thousand others (Linux answers on all of 127.0.0.0/8, so each is a real
// client address; no forwarded header is involved).
//
//   npm run bench:abuse                        # 10 s a phase, 40 ordinary requests/s, floods of 100/s
//   npm run bench:abuse -- --seconds 20 --rate 60 --flood-rate 300 --no-build
//
// The floods are open-loop too: `--flood-rate` sign-ups a second (the script sent 32 a
// second), each with a fresh address. Prints, per phase: the ordinary requests' p50/p95/p99 and
// their p95 as a multiple of idle's; the sign-ups answered, accounts created and 429s. Phases:
// idle; the floor, as many requests a second of `{ __typename }` from the flooding addresses
// (what any flood of that rate costs this machine, the gateway doing nothing); a sign-up flood
// from one address, and from 1,000; and the one-address flood again with the limits off, the
// baseline they are there for. Goal: the ordinary p95 within 2x idle's, and floods get 429s, not
// accounts. On a machine whose cores the load generator shares, the floor's ratio says how much
// of that is the flood's mere HTTP, not the platform's work.
import { request as httpRequest, Agent } from 'node:http';
import { parseArgs } from 'node:util';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, startPlatformProcess } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '40' },
    'flood-rate': { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const floodRate = Number(values['flood-rate']);

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

const agents = new Map();
/** A keep-alive agent whose connections leave from `address`. */
function agentFor(address) {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ keepAlive: true, localAddress: address, maxSockets: 64 });
    agents.set(address, agent);
  }
  return agent;
}

/** POSTs a GraphQL operation from `address`; resolves with the status and the parsed body. */
function post(url, address, query, variables) {
  const body = JSON.stringify({ query, variables });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/graphql`,
      {
        method: 'POST',
        agent: agentFor(address),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const ORDINARY = [
  '{ catalog { models { id label } } }',
  '{ communityDebates { debates { id topic } next } }',
];
const SIGN_UP =
  'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }';

/** `count` requests a second until `until` (ms, performance.now()), each sent when due. */
function openLoop(rate, until, send) {
  const started = performance.now();
  const sent = [];
  for (let i = 0; started + (i * 1000) / rate < until; i += 1) {
    const due = started + (i * 1000) / rate;
    sent.push(
      new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now()))).then(() =>
        send(i, due),
      ),
    );
  }
  return Promise.all(sent);
}

const FLOOR = '{ __typename }';

/**
 * One phase: ordinary requests open-loop at `rate` a second from 127.0.0.2 (latency counted
 * from when each was due, so a stalled server cannot hide behind fewer requests), and, when
 * `flood` is given, `floodRate` requests a second of it ('signUp' or 'floor') from `from(n)`.
 */
async function phase(url, flood, from) {
  // The ordinary requests' latencies (ms) of the successful answers; the others are errors.
  const latency = new Samples();
  const answers = { answered: 0, created: 0, limited: 0, other: 0 };
  const until = performance.now() + seconds * 1000;
  const ordinary = openLoop(rate, until, async (i, due) => {
    try {
      const answer = await post(url, '127.0.0.2', ORDINARY[i % ORDINARY.length]);
      if (answer.status !== 200 || answer.body.errors) {
        latency.fail(`${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      } else latency.add(performance.now() - due);
    } catch (error) {
      latency.fail(error);
    }
  });
  const flooding = flood
    ? openLoop(floodRate, until, async (n) => {
        const answer = await (
          flood === 'floor'
            ? post(url, from(n), FLOOR)
            : post(url, from(n), SIGN_UP, {
                email: `flood-${process.pid}-${url.length}-${n}-${Date.now()}@example.org`,
                password: 'a long enough password',
              })
        )
          // A request that got no answer (a refused connection) counts as an other answer.
          .catch(() => undefined);
        if (answer) answers.answered += 1;
        if (flood === 'floor') return;
        if (answer?.body.data?.signUp) answers.created += 1;
        else if (answer?.status === 429) answers.limited += 1;
        else answers.other += 1;
      })
    : [];
  await Promise.all([ordinary, flooding]);
  const ms = (p) => latency.percentile(p);
  return { p50: ms(50), p95: ms(95), p99: ms(99), latency, flood: answers };
}

const limited = await startPlatformProcess();
const unlimited = await startPlatformProcess({ RATE_LIMITS: 'off' });
// Warm both up (JIT, the store's first queries) before measuring.
for (const { url } of [limited, unlimited]) await phase(url);

const one = () => '127.0.0.3';
const many = (n) => `127.0.${1 + (Math.floor(n / 250) % 4)}.${1 + (n % 250)}`;
const results = [
  ['idle', await phase(limited.url)],
  ['floor: { __typename }, a new address each', await phase(limited.url, 'floor', many)],
  ['sign-up flood, one address', await phase(limited.url, 'signUp', one)],
  ['sign-up flood, a new address each', await phase(limited.url, 'signUp', many)],
  ['idle, limits off', await phase(unlimited.url)],
  ['sign-up flood, one address, limits off', await phase(unlimited.url, 'signUp', one)],
];
const idle = new Map([
  [false, results[0][1].p95],
  [true, results[4][1].p95],
]);

process.stdout.write(
  `\nAbuse benchmark: ${seconds} s a phase, ordinary requests at ${rate}/s from one address, ` +
    `floods of ${floodRate}/s; node ${process.version}\n\n`,
);
const rows = results.map(([name, r]) => ({
  phase: name,
  'ordinary p50 ms': fixed(r.p50, 1),
  'ordinary p95 ms': fixed(r.p95, 1),
  'ordinary p99 ms': fixed(r.p99, 1),
  'p95 / idle p95': fixed(r.p95 / idle.get(name.includes('limits off'))),
  'ordinary failed': r.latency.errors,
  'sign-ups answered': r.flood.answered,
  'accounts created': r.flood.created,
  '429s': r.flood.limited,
  'other answers': r.flood.other,
}));
console.table(rows);
for (const child of [limited.child, unlimited.child]) child.kill('SIGTERM');
const worst = Math.max(...rows.slice(2, 4).map((row) => Number(row['p95 / idle p95'])));
const floor = Number(rows[1]['p95 / idle p95']);
process.stdout.write(
  `\nWith the limits as shipped the worst sign-up flood kept the ordinary p95 at ` +
    `${fixed(worst)}x idle (goal: at most 2x); a flood of { __typename } at the same rate ` +
    `(the floor) at ${fixed(floor)}x.\n`,
);
const passed = reportFailures(results.map(([name, r]) => [`${name}: ordinary`, r.latency]));
process.exit(passed ? 0 : 1);
