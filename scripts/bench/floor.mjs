// The machine's floor for the gateway benchmark: the same hops with none of the platform's code.
// A bare node:http server that answers each POST /<name>/<fanout> by sending <fanout> NATS
// requests at once to a bare responder (nats.js, no framework) and answering with the first
// reply's bytes; the responder answers `bench.floor.<name>` with the payload last published to
// `bench.floor.set.<name>` (the query's real answer, so the same bytes cross the same hops).
//
//   node scripts/bench/floor.mjs responder <nats-url>
//   node scripts/bench/floor.mjs server <nats-url>      (prints 'floor listening at <url>')
import { createServer } from 'node:http';
import { connect } from '@nats-io/transport-node';

const [role, natsUrl] = process.argv.slice(2);
if ((role !== 'responder' && role !== 'server') || !natsUrl) {
  process.stderr.write('usage: floor.mjs responder|server <nats-url>\n');
  process.exit(2);
}
const nc = await connect({ servers: natsUrl, noAsyncTraces: true });

if (role === 'responder') {
  const payloads = new Map();
  const setter = nc.subscribe('bench.floor.set.*');
  const answers = nc.subscribe('bench.floor.*');
  (async () => {
    for await (const message of setter) {
      payloads.set(message.subject.slice('bench.floor.set.'.length), message.data);
      message.respond();
    }
  })();
  (async () => {
    for await (const message of answers) {
      const payload = payloads.get(message.subject.slice('bench.floor.'.length));
      if (payload) message.respond(payload);
    }
  })();
  await nc.flush();
  console.log('floor responder ready');
} else {
  const server = createServer((request, response) => {
    const [, name, fanout] = (request.url ?? '').split('/');
    request.resume();
    request.once('end', () => {
      const calls = Array.from({ length: Number(fanout) || 1 }, () =>
        nc.request(`bench.floor.${name}`, request.url, { timeout: 5_000 }),
      );
      Promise.all(calls).then(
        ([first]) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(first.data);
        },
        (error) => {
          response.writeHead(503, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    console.log(`floor listening at http://127.0.0.1:${port}`);
  });
}
