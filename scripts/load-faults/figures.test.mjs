// The fault run's rules (node --test scripts/load-faults/*.test.mjs): what a voter's mark may be
// after their writes, and a fault's error window and p95 recovery from k6's records.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedFinal, faultFigures, parseConsole } from './figures.mjs';

const asked = (value) => ({ value, acknowledged: false });
const acknowledged = (value) => ({ value, acknowledged: true });

test('the last acknowledged vote is the only one the store may keep', () => {
  const writes = [asked('FOR'), acknowledged('FOR'), asked('AGAINST'), acknowledged('AGAINST')];
  assert.deepEqual([...allowedFinal(writes, null)], ['AGAINST']);
});

test('a vote asked after the last acknowledged one and never answered may or may not be kept', () => {
  const writes = [asked('FOR'), acknowledged('FOR'), asked(null)];
  assert.deepEqual(new Set(allowedFinal(writes, null)), new Set(['FOR', null]));
});

test('an unanswered vote before an acknowledged one does not excuse the store', () => {
  const writes = [asked('AGAINST'), asked('FOR'), acknowledged('FOR')];
  assert.deepEqual([...allowedFinal(writes, null)], ['FOR']);
});

test('a star toggled without an answer after the last acknowledged one allows either', () => {
  assert.equal(
    allowedFinal([asked(null), acknowledged(true), asked(null)], false, { toggle: true }),
    undefined,
  );
  assert.deepEqual(
    [...allowedFinal([asked(null), acknowledged(true)], false, { toggle: true })],
    [true],
  );
});

test("k6's console lines are read back; the scenarios' warnings are kept apart", () => {
  const { requests, writes, other } = parseConsole(
    [
      'REQ {"op":"vote","t":1000,"d":20,"ok":true}',
      'ASK {"w":"vote","voter":"u","debate":"d","value":"FOR","t":1000}',
      'ACK {"w":"vote","voter":"u","debate":"d","value":"FOR","t":1020}',
      'VU 3: vote answered 200: […]',
    ].join('\n'),
  );
  assert.deepEqual(requests, [{ op: 'vote', t: 1000, d: 20, ok: true, end: 1020 }]);
  assert.deepEqual(
    writes.map((w) => w.acknowledged),
    [false, true],
  );
  assert.deepEqual(other, ['VU 3: vote answered 200: […]']);
});

/** A request every 100 ms for 60 s, 20 ms each; `change` may make one slow or failed. */
function requests(change = () => ({})) {
  return Array.from({ length: 600 }, (_, i) => {
    const t = i * 100;
    const request = { op: 'vote', t, d: 20, ok: true, ...change(t) };
    return { ...request, end: request.t + request.d };
  });
}
const options = { baselineMs: 10_000, windowMs: 5_000, holdMs: 5_000, factor: 1.5, endAt: 60_000 };
const fault = { name: 'community-1', killedAt: 30_000, backAt: 33_000 };

test('a fault that fails 2 s of requests reports them and a 2 s error window', () => {
  const [figure] = faultFigures(
    requests((t) => (t >= 30_000 && t < 32_000 ? { ok: false } : {})),
    [fault],
    options,
  );
  assert.equal(figure.failed, 20);
  assert.equal(figure.window.to - figure.window.from, 1_920);
  assert.equal(figure.requests, 300);
});

test('the p95 is back once a window and the next ones are within 1.5x of before', () => {
  const [slowed] = faultFigures(
    requests((t) => (t >= 30_000 && t < 36_000 ? { d: 500 } : {})),
    [fault],
    options,
  );
  assert.equal(slowed.p95Before, 20);
  // The last slow request is answered at 36.4 s: the first window after it starts at 36.25 s
  // (a quarter of a window apart), and holds.
  assert.equal(slowed.recoveredMs, 6_250);
  const [untouched] = faultFigures(requests(), [fault], options);
  assert.equal(untouched.recoveredMs, 0);
});

test('a p95 that never comes back within the period is reported as such', () => {
  const [figure] = faultFigures(
    requests((t) => (t >= 30_000 ? { d: 500 } : {})),
    [fault],
    options,
  );
  assert.equal(figure.recoveredMs, undefined);
});
