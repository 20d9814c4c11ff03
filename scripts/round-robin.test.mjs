// start:cluster --replicas' entry point (scripts/round-robin.mjs): connections go to the
// gateways in turn, and one that refuses connections (killed, restarting) is skipped.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, test } from 'node:test';
import { startRoundRobin } from './round-robin.mjs';

/** An HTTP server on a free port that answers every request with `name`. */
async function upstream(name) {
  const server = createServer((request, response) => response.end(name));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port };
}

const listening = [];
after(() => {
  for (const server of listening) server.close();
});

test('spreads connections over the gateways in turn, and skips one that is down', async () => {
  const one = await upstream('one');
  const two = await upstream('two');
  listening.push(one.server, two.server);
  const entry = await startRoundRobin({
    host: '127.0.0.1',
    port: 0,
    upstreams: () => [one.port, two.port],
  });
  listening.push(entry);
  const url = `http://127.0.0.1:${entry.address().port}/`;
  // A new connection for each request (no keep-alive), as each browser or k6 user has its own.
  const ask = async () => (await fetch(url, { headers: { connection: 'close' } })).text();

  const answers = [];
  for (let i = 0; i < 6; i += 1) answers.push(await ask());
  assert.deepEqual(answers.toSorted(), ['one', 'one', 'one', 'two', 'two', 'two']);
  assert.notEqual(answers[0], answers[1]);

  await new Promise((resolve) => {
    one.server.closeAllConnections();
    one.server.close(resolve);
  });
  const afterLoss = [];
  for (let i = 0; i < 4; i += 1) afterLoss.push(await ask());
  assert.deepEqual(afterLoss, ['two', 'two', 'two', 'two']);
});
