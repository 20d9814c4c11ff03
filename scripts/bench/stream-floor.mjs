// The machine's floor for the generation benchmark: the same hops as a debate's words take
// through the platform (a speaker process, a NATS cluster, a WebSocket server, the client) with
// none of the platform's code. Three clustered nats-servers (@debate/nest/testing's
// startNatsCluster: production's cluster settings, without users);
// `replicas` bare speakers (nats.js): each takes `floor.start` requests in a queue group and
// publishes a run's events on `floor.run.<id>` at the offline speaker's pace (the same six turns'
// words, each piece stamped `at` when published); `replicas` bare relays (`ws`): each speaks as
// much of graphql-ws as a client needs, and for a `subscribe` follows `floor.run.<id>`, asks a
// speaker to start that run and sends each event's bytes, unparsed, as a `next` message.
//
//   startStreamFloor({ replicas, pace, words })   (from a benchmark)
//   node scripts/bench/stream-floor.mjs speaker <nats-urls> <pace JSON> <turn words JSON>
//   node scripts/bench/stream-floor.mjs relay <nats-urls>     (prints 'relay listening at <url>')
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { eachLine, root } from '../workspace.mjs';

const self = fileURLToPath(import.meta.url);

/**
 * Starts the floor: resolves once every server is healthy and every speaker and relay ready, with
 * { relays (their ws URLs), processes ({ name, pid } each, for watchProcesses), stop() }.
 * `pace` is { tps, firstTokenMs, pauseMs } as the offline speaker's settings; `words` each
 * turn's words (with their trailing space), as a debate's turns have them.
 */
export async function startStreamFloor({ replicas, pace, words }) {
  const { startNatsCluster } = await import('@debate/nest/testing');
  let cluster;
  const children = [];
  const processes = [];
  const start = (name, command, args, ready) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      processes.push({ name, pid: child.pid });
      let output = '';
      const onLine = (line) => {
        output += `${line}\n`;
        const match = ready.exec(line);
        if (match) resolve(match[1]);
      };
      eachLine(child.stdout, onLine);
      eachLine(child.stderr, onLine);
      child.once('exit', (code, signal) =>
        reject(new Error(`floor ${name} exited (${code ?? signal}): ${output.slice(-500)}`)),
      );
    });
  const stop = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    const alive = (child) => child.exitCode === null && child.signalCode === null;
    const deadline = Date.now() + 10_000;
    while (children.some(alive) && Date.now() < deadline) await sleep(100);
    for (const child of children.filter(alive)) child.kill('SIGKILL');
    await cluster?.stop();
  };
  try {
    cluster = await startNatsCluster({ config: '# the floor has no users' });
    for (const [i, server] of cluster.servers.entries()) {
      processes.push({ name: `floor-nats-${i + 1}`, pid: server.pid });
    }
    const servers = cluster.servers.map((server) => server.url);
    // Each process its own first server, as the platform's processes spread over the three.
    const urls = (first) => servers.map((_, i) => servers[(first + i) % servers.length]).join(',');
    const relays = [];
    for (let i = 0; i < replicas; i += 1) {
      await start(
        `floor-speaker-${i + 1}`,
        process.execPath,
        [self, 'speaker', urls(i), JSON.stringify(pace), JSON.stringify(words)],
        /^(speaker ready)$/,
      );
      relays.push(
        await start(
          `floor-relay-${i + 1}`,
          process.execPath,
          [self, 'relay', urls(i + 1)],
          /^relay listening at (\S+)$/,
        ),
      );
    }
    return { relays, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A speaker: runs the floor's debates, each turn's words at `pace`, as the offline speaker. */
async function speaker(nc, pace, turns) {
  const publish = (id, event) => nc.publish(`floor.run.${id}`, JSON.stringify(event));
  const runDebate = async (id) => {
    let seq = 0;
    publish(id, { type: 'runStarted', seq: seq++ });
    for (const [turn, words] of turns.entries()) {
      publish(id, { type: 'turnStarted', seq: seq++, turn });
      if (pace.firstTokenMs > 0) await sleep(pace.firstTokenMs);
      const gap = pace.tps > 0 ? 1000 / pace.tps : 0;
      const started = Date.now();
      for (const [index, text] of words.entries()) {
        if (gap > 0 && index > 0) {
          // Paced against the start, as the offline speaker paces its words.
          const due = started + index * gap - Date.now();
          if (due > 0) await sleep(due);
        }
        publish(id, { type: 'textDelta', seq: seq++, at: Date.now(), turn, text });
      }
      publish(id, { type: 'turnCompleted', seq: seq++, turn, text: words.join('') });
      if (pace.pauseMs > 0 && turn < turns.length - 1) await sleep(pace.pauseMs);
    }
    publish(id, { type: 'runCompleted', seq: seq++ });
  };
  nc.subscribe('floor.start', {
    queue: 'floor-speakers',
    callback: (error, message) => {
      if (error) return;
      const { id } = message.json();
      message.respond();
      runDebate(id).catch((failure) => process.stderr.write(`${failure}\n`));
    },
  });
  await nc.flush();
  process.stdout.write('speaker ready\n');
}

/**
 * A relay: graphql-ws's handshake, then for each `subscribe` (variables.id the run's id) the
 * run's events as `next` messages, `complete` after runCompleted.
 */
async function relay(nc) {
  const { WebSocketServer } = await import('ws');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/graphql' });
  server.on('connection', (socket) => {
    const followed = new Set();
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'connection_init') {
        socket.send('{"type":"connection_ack"}');
      } else if (message.type === 'ping') {
        socket.send('{"type":"pong"}');
      } else if (message.type === 'subscribe') {
        const { id } = message;
        const runId = message.payload.variables.id;
        const prefix = `{"id":${JSON.stringify(id)},"type":"next","payload":{"data":{"debateRun":`;
        const subscription = nc.subscribe(`floor.run.${runId}`, {
          callback: (error, event) => {
            if (error || socket.readyState !== socket.OPEN) return;
            const json = event.string();
            socket.send(`${prefix}${json}}}}`);
            if (json.startsWith('{"type":"runCompleted"')) {
              socket.send(JSON.stringify({ id, type: 'complete' }));
              subscription.unsubscribe();
              followed.delete(subscription);
            }
          },
        });
        followed.add(subscription);
        nc.request('floor.start', JSON.stringify({ id: runId }), { timeout: 10_000 }).catch(
          (error) =>
            socket.send(
              JSON.stringify({ id, type: 'error', payload: [{ message: String(error) }] }),
            ),
        );
      }
    });
    socket.on('close', () => {
      for (const subscription of followed) subscription.unsubscribe();
    });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  process.stdout.write(`relay listening at ws://127.0.0.1:${server.address().port}/graphql\n`);
}

if (process.argv[1] === self) {
  const [role, servers, ...rest] = process.argv.slice(2);
  if ((role !== 'speaker' && role !== 'relay') || !servers) {
    process.stderr.write('usage: stream-floor.mjs speaker|relay <nats-urls> [...]\n');
    process.exit(2);
  }
  const { connect } = await import('@nats-io/transport-node');
  const nc = await connect({ servers: servers.split(','), noAsyncTraces: true });
  process.once('SIGTERM', () => nc.close().then(() => process.exit(0)));
  if (role === 'speaker') await speaker(nc, JSON.parse(rest[0]), JSON.parse(rest[1]));
  else await relay(nc);
}
