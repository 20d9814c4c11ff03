// Store benchmark: the embedded MongoDB-compatible server (and, with MONGO_URL, a real MongoDB
// beside it) through the official driver, on the same workload:
//   - 100,000 inserts, acknowledged only once durable (batches of 1,000 from 4 concurrent writers);
//   - indexed equality finds (p50/p99): through the driver; as bare OP_MSG round trips from Node
//     ('wire'); and the same messages from a Python client ('probe', scripts/bench/wire-probe.py),
//     whose collector does not pause it, which leaves the server's own share of the latency;
//   - a sorted, filtered page of 20 by an indexed field (p50/p99);
//   - the embedded server's resident memory (RSS) after loading.
//
//   npm run bench:store                    # options: --documents 100000 --samples 2000 --warmup 5
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, root } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    samples: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '5' },
    'no-build': { type: 'boolean', default: false },
  },
});
const documents = Number(values.documents);
const samples = Number(values.samples);
const warmupMs = Number(values.warmup) * 1000;
if (!Number.isInteger(documents) || documents < 1000) throw new Error('--documents must be ≥ 1000');
if (!Number.isInteger(samples) || samples < 10) throw new Error('--samples must be ≥ 10');
if (!(warmupMs >= 0)) throw new Error('--warmup must be a number of seconds');

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}
const { MongoClient } = await import('mongodb');
const { BSON } = await import('bson');

/**
 * A minimal wire client: one OP_MSG at a time on one socket, timed from write to full reply.
 * Messages are serialised before timing and replies decoded after, so that the client's own
 * allocations (and its garbage collector) stay out of the figure as far as Node allows.
 */
async function rawClient(uri) {
  const url = new URL(uri);
  const socket = connect(Number(url.port || 27017), url.hostname);
  socket.setNoDelay(true);
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered = Buffer.alloc(0);
  let waiting;
  socket.on('data', (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    if (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
      const reply = buffered.subarray(0, buffered.readInt32LE(0));
      buffered = buffered.subarray(reply.length);
      waiting(reply);
    }
  });
  let requestId = 0;
  return {
    prepare: (body) => {
      const bson = BSON.serialize(body);
      const head = Buffer.alloc(21);
      head.writeInt32LE(21 + bson.length, 0);
      head.writeInt32LE(++requestId, 4);
      head.writeInt32LE(2013, 12);
      return Buffer.concat([head, bson]);
    },
    roundTrip: (message) =>
      new Promise((resolve) => {
        waiting = resolve;
        socket.write(message);
      }),
    decode: (reply) => BSON.deserialize(reply.subarray(21)),
    close: () => socket.destroy(),
  };
}

/** Ten values of a filtered field, as the community's ten categories are. */
const categories = Array.from({ length: 10 }, (_, i) => `category-${i}`);

/** Times `fn` into `samples` (ms), or counts its error there. */
async function time(samples, fn) {
  const started = process.hrtime.bigint();
  try {
    await fn();
    samples.add(Number(process.hrtime.bigint() - started) / 1e6);
  } catch (error) {
    samples.fail(error);
  }
}

async function measure(name, uri, rssOf) {
  const client = await MongoClient.connect(uri, { maxPoolSize: 8 });
  const db = client.db(`bench_${Date.now()}`);
  const debates = db.collection('debates');
  await debates.createIndex({ slug: 1 }, { unique: true });
  await debates.createIndex({ score: -1 });

  const batch = 1000;
  let next = 0;
  const writer = async () => {
    while (next < documents) {
      const from = next;
      next += batch;
      const rows = [];
      for (let i = from; i < Math.min(from + batch, documents); i += 1) {
        rows.push({
          slug: `debate-${i}`,
          title: `Should topic number ${i} be debated in public?`,
          category: categories[i % categories.length],
          score: (i * 7919) % 10007,
          stars: i % 50,
          createdAt: new Date(1_700_000_000_000 + i * 1000),
        });
      }
      await debates.insertMany(rows, { ordered: false, writeConcern: { w: 1, j: true } });
    }
  };
  const inserted = process.hrtime.bigint();
  await Promise.all(Array.from({ length: 4 }, writer));
  const insertMs = Number(process.hrtime.bigint() - inserted) / 1e6;

  // Warm-up, not measured, for a few seconds: the JIT compiles the hot paths of both ends, and
  // the collector finishes with the garbage of the load phase, so that the reads are timed in
  // the steady state a running service sees.
  const warmUntil = Date.now() + warmupMs;
  for (let i = 0; Date.now() < warmUntil; i += 1) {
    await debates.findOne({ slug: `debate-${i % documents}` });
    await debates
      .find({ category: categories[i % 10] })
      .sort({ score: -1 })
      .limit(20)
      .toArray();
  }
  const findTimes = new Samples();
  for (let i = 0; i < samples; i += 1) {
    const slug = `debate-${Math.floor(Math.random() * documents)}`;
    await time(findTimes, async () => {
      if (!(await debates.findOne({ slug }))) throw new Error(`find ${slug} found nothing`);
    });
  }
  const raw = await rawClient(uri);
  const slugs = Array.from(
    { length: samples },
    () => `debate-${Math.floor(Math.random() * documents)}`,
  );
  const messages = slugs.map((slug) =>
    raw.prepare({
      find: 'debates',
      filter: { slug },
      limit: 1,
      singleBatch: true,
      $db: db.databaseName,
    }),
  );
  const replies = new Array(samples);
  const roundTrips = new Array(samples);
  for (let i = 0; i < samples; i += 1) {
    const started = process.hrtime.bigint();
    replies[i] = await raw.roundTrip(messages[i]);
    roundTrips[i] = Number(process.hrtime.bigint() - started) / 1e6;
  }
  const rawTimes = new Samples();
  replies.forEach((reply, i) => {
    const answer = raw.decode(reply);
    const found = answer.cursor?.firstBatch?.[0]?.slug;
    if (found === slugs[i]) rawTimes.add(roundTrips[i]);
    else rawTimes.fail(`raw find ${slugs[i]} returned ${found}: ${answer.errmsg ?? ''}`);
  });
  raw.close();

  // The same finds from a client with no tracing collector (Python), when python3 is there:
  // its p50 and p99, or its error.
  const probe = new Samples();
  if (spawnSync('python3', ['--version']).status === 0) {
    const file = join(tmpdir(), `bench-store-messages-${process.pid}.bin`);
    writeFileSync(file, Buffer.concat([...messages, ...messages]));
    const url = new URL(uri);
    const result = spawnSync(
      'python3',
      [join(root, 'scripts/bench/wire-probe.py'), url.hostname, url.port || '27017', file],
      { encoding: 'utf8' },
    );
    rmSync(file, { force: true });
    if (result.status !== 0) probe.fail(`wire probe failed: ${result.stderr}`);
    else for (const figure of result.stdout.trim().split(' ')) probe.add(Number(figure));
  }
  const pageTimes = new Samples();
  for (let i = 0; i < samples; i += 1) {
    const category = categories[i % categories.length];
    await time(pageTimes, async () => {
      const page = await debates.find({ category }).sort({ score: -1 }).limit(20).toArray();
      if (page.length === 0) throw new Error(`the page of ${category} was empty`);
    });
  }
  const rss = rssOf ? (rssOf() / 1024 / 1024).toFixed(0) : 'n/a';
  await db.dropDatabase();
  await client.close();
  const figures = {
    server: name,
    'durable writes/s': Math.round(documents / (insertMs / 1000)),
    'find p50 ms': fixed(findTimes.percentile(50)),
    'find p99 ms': fixed(findTimes.percentile(99)),
    'wire find p50 ms': fixed(rawTimes.percentile(50)),
    'wire find p99 ms': fixed(rawTimes.percentile(99)),
    'probe find p50 ms': probe.count ? fixed(probe.values[0]) : 'n/a',
    'probe find p99 ms': probe.count ? fixed(probe.values[1]) : 'n/a',
    'page p50 ms': fixed(pageTimes.percentile(50)),
    'page p99 ms': fixed(pageTimes.percentile(99)),
    'RSS MiB': rss,
  };
  return {
    figures,
    paths: [
      [`${name}: find`, findTimes],
      [`${name}: wire find`, rawTimes],
      ...(probe.count || probe.errors ? [[`${name}: probe find`, probe]] : []),
      [`${name}: page`, pageTimes],
    ],
  };
}

/** The server in its own process, as `npx embedded-mongo` runs it, so that its RSS is its own. */
async function startEmbedded(dbPath) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.STORE_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      join(root, 'libs/embedded-mongo/bin/embedded-mongo.js'),
      '--port',
      '0',
      '--dbpath',
      dbPath,
    ],
    { stdio: ['ignore', 'pipe', process.env.STORE_NODE_FLAGS ? 'inherit' : 'ignore'] },
  );
  const uri = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      if (process.env.STORE_NODE_FLAGS) process.stderr.write(chunk);
      const listening = /listening at (mongodb:\/\/\S+)/.exec(chunk.toString());
      if (listening) resolve(listening[1]);
    });
    child.once('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}`)));
  });
  const rss = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) * 1024;
  const stop = () =>
    new Promise((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { uri, rss, stop };
}

const rows = [];
const dbPath = mkdtempSync(join(tmpdir(), 'bench-store-'));
const server = await startEmbedded(dbPath);
try {
  rows.push(await measure('embedded', server.uri, server.rss));
} finally {
  await server.stop();
  rmSync(dbPath, { recursive: true, force: true });
}
if (process.env.MONGO_URL) rows.push(await measure('MongoDB (MONGO_URL)', process.env.MONGO_URL));

process.stdout.write(
  `\n${documents} documents, ${samples} samples per query, Node ${process.version}\n`,
);
console.table(rows.map((row) => row.figures));
process.stdout.write('Goals: find p99 ≤ 2 ms, page p99 ≤ 10 ms, ≥ 5,000 durable writes/s.\n');
reportFailures(rows.flatMap((row) => row.paths));
