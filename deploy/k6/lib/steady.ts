/**
 * The fault run's mode (`npm run load:faults`, scripts/load-faults.mjs): `-e MODE=steady` runs a
 * scenario at a steady arrival rate (`-e RATE=<iterations a second>`, `-e DURATION=…`) with no
 * thresholds of its own, while the script kills processes of the platform; the script judges
 * the run by what it reads back. Each request and each write is written to k6's console as one
 * line, `REQ {…}`, `ASK {…}` or `ACK {…}` (JSON), which the script reads with `--console-output`
 * (`--log-format raw`). Without MODE nothing is written and each scenario runs as before.
 */
import type { Options } from 'k6/options';

const MODE = __ENV['MODE'] ?? 'normal';
if (MODE !== 'normal' && MODE !== 'steady') {
  throw new Error(`MODE must be normal or steady, not ${MODE}`);
}
export const STEADY = MODE === 'steady';

function required(name: string): string {
  const value = __ENV[name];
  if (!value) throw new Error(`-e MODE=steady needs -e ${name}`);
  return value;
}

/**
 * The options of a scenario in the fault run: `RATE` iterations a second (a fraction allowed:
 * k6 counts them a minute) for `DURATION`, with at most `maxVUs` under way at once.
 */
export function steadyOptions(name: string, maxVUs: number): Options {
  const rate = Number(required('RATE'));
  if (!Number.isFinite(rate) || rate <= 0) {
    throw new Error(`RATE must be a positive number, not ${__ENV['RATE'] ?? ''}`);
  }
  return {
    // The fault run stops k6 itself once its last fault has settled; a setup that writes
    // debates on a fresh store takes about 20 s.
    setupTimeout: '5m',
    scenarios: {
      [name]: {
        executor: 'constant-arrival-rate',
        rate: Math.max(1, Math.round(rate * 60)),
        timeUnit: '1m',
        duration: required('DURATION'),
        // Few at first, more only as the latency needs them: a storm VU signs up a voter of its
        // own, and a hundred sign-ups at once would load the platform before any fault.
        preAllocatedVUs: Math.min(maxVUs, Math.max(2, Math.ceil(rate / 4))),
        maxVUs,
      },
    },
  };
}

/**
 * One request as the fault run reads it: its start, its end (now) and outcome, and for a
 * failure noticed after the fact (a debate's run that stopped sending), when it broke.
 */
export function recordRequest(
  op: string,
  startedAt: number,
  ok: boolean,
  brokeAt?: number,
  error?: string,
): void {
  if (!STEADY) return;
  const failure = ok ? {} : { brokeAt, error: error?.slice(0, 120) };
  const record = { op, t: startedAt, d: Date.now() - startedAt, ok, ...failure };
  console.log(`REQ ${JSON.stringify(record)}`);
}

/**
 * A write, for the fault run's reconciliation against the stores: `asked` just before its
 * request is sent (its outcome unknown until acknowledged: a request cut short, by a fault or
 * by the end of the run, may or may not have been applied), `acknowledged` once the platform
 * answered it. A `run` is the end of a debate's run as its author saw it.
 */
export type Write =
  | { w: 'vote'; voter: string; debate: string; value: string | null }
  | { w: 'star'; voter: string; debate: string; value: boolean | null }
  | { w: 'start'; runId: string; email: string }
  | { w: 'run'; runId: string; completed: boolean }
  | { w: 'save'; id: string; runId: string }
  | { w: 'share'; id: string };

export function recordWrite(write: Write, state: 'asked' | 'acknowledged'): void {
  if (!STEADY) return;
  const tag = state === 'asked' ? 'ASK' : 'ACK';
  console.log(`${tag} ${JSON.stringify({ ...write, t: Date.now() })}`);
}
