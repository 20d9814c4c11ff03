// The fault run's figures from what k6 recorded (deploy/k6/lib/steady.ts): each request's start,
// time and outcome, and each write asked and acknowledged; per fault, its error window, the
// requests failed, and when the p95 was back near what it was before the fault.

/**
 * The lines of k6's console output (`--log-format raw`): requests (`REQ`), writes asked (`ASK`)
 * and acknowledged (`ACK`), and anything else (the scenarios' warnings) as `other`.
 */
export function parseConsole(text) {
  const requests = [];
  const writes = [];
  const other = [];
  for (const line of text.split('\n')) {
    const match = /^(REQ|ASK|ACK) (\{.*\})\s*$/.exec(line);
    if (!match) {
      if (line.trim()) other.push(line);
      continue;
    }
    const record = JSON.parse(match[2]);
    if (match[1] === 'REQ') requests.push({ ...record, end: record.t + record.d });
    else writes.push({ ...record, acknowledged: match[1] === 'ACK' });
  }
  return { requests, writes, other };
}

/** The 95th percentile (nearest rank) of `values`; undefined when there are none. */
function p95(values) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

/** A debate's run is followed for its whole length (about 20 s): it counts in failures only. */
const timed = (request) => request.op !== 'debateRun';

/**
 * The figures of each fault, from the requests (all scenarios together): `faults` in order,
 * each `{ name, killedAt, backAt }`, the last one's period ending at `endAt`.
 * - period: from the kill to the next kill (or the end); a request belongs to the period its
 *   answer came in.
 * - error window: from the start of the period's first failed request (a debate's run: when
 *   it broke, its last event) to the answer of its last one (a run: when its author gave up on
 *   it), and the requests answered within it.
 * - p95 recovery: the p95 of the `baselineMs` before the kill; then the p95 of a rolling
 *   `windowMs` window (by the requests' answers), moved by a quarter of it: the time from the
 *   kill to the start of the first window whose p95, and that of every window starting up to
 *   `holdMs` later (within the period), is within `factor` of the p95 before. 0: it never left
 *   it; undefined: it was not back within the period.
 */
export function faultFigures(requests, faults, options) {
  const { baselineMs, windowMs, holdMs, factor, endAt } = options;
  const byEnd = [...requests].sort((a, b) => a.end - b.end);
  const between = (from, to) => byEnd.filter((r) => r.end >= from && r.end < to);
  return faults.map((fault, index) => {
    const periodEnd = faults[index + 1]?.killedAt ?? endAt;
    const period = between(fault.killedAt, periodEnd);
    const failed = period.filter((r) => !r.ok);
    let window;
    if (failed.length > 0) {
      const from = Math.min(...failed.map((r) => r.brokeAt ?? r.t));
      const to = Math.max(...failed.map((r) => r.end));
      window = { from, to, total: between(from, to + 1).length };
    }
    const before = p95(
      between(fault.killedAt - baselineMs, fault.killedAt)
        .filter(timed)
        .map((r) => r.d),
    );
    const limit = before === undefined ? undefined : before * factor;
    // Windows end at the period's end: the next fault's requests are not this one's.
    const within = (start) => {
      const latencies = between(start, Math.min(start + windowMs, periodEnd))
        .filter(timed)
        .map((r) => r.d);
      // A window without requests tells nothing: it does not hold the recovery back.
      return latencies.length === 0 || (p95(latencies) ?? 0) <= limit;
    };
    let recovered;
    if (limit !== undefined) {
      const step = windowMs / 4;
      for (let start = fault.killedAt; start + windowMs <= periodEnd; start += step) {
        let holds = true;
        for (
          let later = start;
          later <= Math.min(start + holdMs, periodEnd - windowMs);
          later += step
        ) {
          if (!within(later)) {
            holds = false;
            break;
          }
        }
        if (holds) {
          recovered = start - fault.killedAt;
          break;
        }
      }
    }
    return {
      ...fault,
      periodEnd,
      requests: period.length,
      failed: failed.length,
      window,
      p95Before: before,
      recoveredMs: recovered,
    };
  });
}

/**
 * What a voter's mark (a vote, a star) on a debate may be in the store after their writes,
 * in the order they were made (one voter's writes are one after another): the value of the last
 * acknowledged one (`initial` with none), or that of any asked after it whose answer never came
 * (applied or not, nobody knows). A toggle's value is only known from its answer: one asked
 * and never answered after the last acknowledged allows either (undefined: anything).
 */
export function allowedFinal(writes, initial, { toggle = false } = {}) {
  const lastAcknowledged = writes.findLastIndex((write) => write.acknowledged);
  const allowed = new Set([lastAcknowledged === -1 ? initial : writes[lastAcknowledged].value]);
  // Every write after the last acknowledged one was asked and never answered.
  for (const write of writes.slice(lastAcknowledged + 1)) {
    if (toggle) return undefined;
    allowed.add(write.value);
  }
  return allowed;
}
