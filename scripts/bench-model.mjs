// Local model benchmark: what the embedded model server (libs/embedded-model) costs on top of
// llama.cpp, and what it gives with several debates at once. On one GGUF model and one thread
// count, in this one process:
//   1. the floor: node-llama-cpp's own generation loop (LlamaChat.generateResponse, as the
//      server's engine calls it) on a context made as the server makes its own: tokens per second
//      from the first piece of text to the last, and the time to the first;
//   2. through the server: the same prompt and sampling as POST /v1/chat/completions with
//      `stream: true` and `stream_options.include_usage`, read by fetch from this process: tokens
//      per second from the first content chunk to the last (the count from the usage chunk), and
//      the time to the first from the request sent; then server ÷ floor (goal: ≥ 0.95, the HTTP
//      path costs at most 5 %);
//   3. 1, 2 and 4 streaming requests at once: total tokens per second and each one's time to
//      first token.
// Every answer is made as long as asked: the same JSON-schema grammar in both paths (many
// required string properties, so the JSON cannot close before --tokens), the same temperature and
// seed, so the floor and the server write the same text; a run that ends early is flagged. Floor
// and server runs alternate (ABBA), each run with a prompt of its own, after one warm-up each.
//
//   npm run bench:model                                   # the tests' tiny model: 512 tokens, 9 runs
//   npm run bench:model -- --model file.gguf --threads 2 --tokens 128 --runs 5 --context 8192
//     (a model of one's own: 128 tokens and 5 runs unless told; --threads 1 unless told)
//   LOCAL_MODEL_FILE=~/.cache/debate/models/qwen2.5-1.5b-instruct-q4_k_m.gguf npm run bench:model
//
// llama.cpp's threads spin while they wait: anything else running on the cores makes every token
// slower (the tiny model went from 30 ms to 700 ms a token on a busy machine). The script prints
// the load average and how much CPU other processes took during the run; measure on an idle
// machine.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { basename, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fixed as figure, reportFailures, Samples } from './bench/samples.mjs';
import { tinyModelPath } from './tiny-model.mjs';
import { run } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    threads: { type: 'string', default: '1' },
    tokens: { type: 'string' },
    runs: { type: 'string' },
    context: { type: 'string', default: '8192' },
    'no-build': { type: 'boolean', default: false },
  },
});
const file = values.model
  ? resolve(values.model)
  : process.env.LOCAL_MODEL_FILE
    ? resolve(process.env.LOCAL_MODEL_FILE)
    : await tinyModelPath();
if (!existsSync(file)) throw new Error(`No model file at ${file}`);
/** The tiny model writes a token in about a millisecond: longer answers and more runs steady it. */
const tiny = !values.model && !process.env.LOCAL_MODEL_FILE;

const threads = Number(values.threads);
const tokens = Number(values.tokens ?? (tiny ? 512 : 128));
const runs = Number(values.runs ?? (tiny ? 9 : 5));
const contextSize = Number(values.context);
/** The server's sequences: as many as the most requests at once below, so none waits. */
const SEQUENCES = 4;
const CONCURRENCY = [1, 2, 4];
const TEMPERATURE = 0.8;
const SEED = 1234;
const GOAL_RATIO = 0.95;
if (!Number.isInteger(threads) || threads < 1) throw new Error('--threads must be ≥ 1');
if (!Number.isInteger(tokens) || tokens < 8) throw new Error('--tokens must be ≥ 8');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be ≥ 1');
if (!Number.isInteger(contextSize) || contextSize < 512) throw new Error('--context must be ≥ 512');

if (!values['no-build']) run('npx', ['tsc', '-p', 'libs/embedded-model/tsconfig.build.json']);
const { startModelServer } = await import('@debate/embedded-model');
const { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } = await import('node-llama-cpp');

// --- the machine, and what else it does -------------------------------------------------------

/** The machine's busy CPU time so far, in ms (Linux: /proc/stat), or undefined elsewhere. */
function machineBusyMs() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return ((user + nice + system + irq + softirq + (steal || 0)) * 1000) / 100; // USER_HZ = 100
  } catch {
    return undefined;
  }
}
const ownBusyMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const loadBefore = loadavg()[0];
const started = { wall: performance.now(), machine: machineBusyMs(), own: ownBusyMs() };

// --- statistics and printing ------------------------------------------------------------------

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (x, digits = 1) => figure(x, digits);
/** "median (min–max)" of a list. */
const spread = (xs, digits = 1) =>
  xs.length === 1
    ? fixed(xs[0], digits)
    : `${fixed(median(xs), digits)} (${fixed(Math.min(...xs), digits)}–${fixed(Math.max(...xs), digits)})`;
/** Tokens per second between the first piece of text and the last: the tokens after the first. */
const rate = (count, firstMs, lastMs) =>
  lastMs > firstMs ? ((count - 1) * 1000) / (lastMs - firstMs) : NaN;
const print = (line = '') => process.stdout.write(`${line}\n`);

// --- what is asked ------------------------------------------------------------------------------

/** One required string property per token asked: the JSON cannot close before the limit. */
const SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: tokens }, (_, index) => [`p${index}`, { type: 'string' }]),
  ),
  required: Array.from({ length: tokens }, (_, index) => `p${index}`),
  additionalProperties: false,
};
const SYSTEM =
  'You are a debater in a formal debate. Answer with a JSON object of the given properties, each ' +
  'one point of your speech, in plain English.';
/** Each run's own prompt (a run number in front), so that no run reuses another's evaluated prompt. */
const userPrompt = (label) =>
  `Debate ${label}. The motion: "This house would ban private cars from city centres." You speak ` +
  'for the motion, in the opening round. Your opponent has not spoken yet. Make your strongest ' +
  'case: the costs of congestion and pollution, who pays them, what the alternatives are, and ' +
  'why the change is worth its price for the people who live and work in the centre.';

// --- the floor: node-llama-cpp alone -------------------------------------------------------------

// Made as the server's engine makes its own (libs/embedded-model/src/engine.ts).
const llama = await getLlama({
  gpu: false,
  build: 'never',
  logLevel: LlamaLogLevel.error,
  maxThreads: threads,
});
const model = await llama.loadModel({ modelPath: file });
const context = await model.createContext({ contextSize, sequences: SEQUENCES, threads });
const floorSequence = context.getSequence();
const grammar = await llama.createGrammarForJsonSchema(SCHEMA);
const metadataName = model.fileInfo.metadata.general?.name;

// One LlamaChat for every run, as a program on node-llama-cpp alone would hold it: the floor is
// its generation loop at its best. The server makes one a request, with the chat wrapper it
// resolved once at load, as here.
const chatWrapper = resolveChatWrapper(model);
const floorChat = new LlamaChat({
  contextSequence: floorSequence,
  chatWrapper,
  autoDisposeSequence: false,
});

/** What making a LlamaChat with a resolved wrapper costs: the server makes one a request. */
function newChatMs() {
  const start = performance.now();
  const chat = new LlamaChat({
    contextSequence: floorSequence,
    chatWrapper,
    autoDisposeSequence: false,
  });
  const ms = performance.now() - start;
  chat.dispose({ disposeSequence: false });
  return ms;
}

async function floorRun(label) {
  const history = [
    { type: 'system', text: SYSTEM },
    { type: 'user', text: userPrompt(label) },
    { type: 'model', response: [] },
  ];
  let count = 0;
  let first;
  let last;
  const sent = performance.now();
  const answer = await floorChat.generateResponse(history, {
    maxTokens: tokens,
    temperature: TEMPERATURE,
    seed: SEED,
    grammar,
    repeatPenalty: false,
    onToken: (generated) => {
      count += generated.length;
    },
    onTextChunk: () => {
      const now = performance.now();
      first ??= now;
      last = now;
    },
  });
  return {
    tokens: count,
    tps: rate(count, first, last),
    ttftMs: first - sent,
    full: answer.metadata.stopReason === 'maxTokens' && count === tokens,
    text: answer.response,
  };
}

// --- through the server ---------------------------------------------------------------------------

const server = await startModelServer({
  source: { file },
  threads,
  contextSize,
  sequences: SEQUENCES,
  maxQueue: 8,
});
await server.ready();

async function serverRun(label) {
  const sent = performance.now();
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: server.modelId,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: userPrompt(label) },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: tokens,
      temperature: TEMPERATURE,
      seed: SEED,
      response_format: { type: 'json_schema', json_schema: { name: 'speech', schema: SCHEMA } },
    }),
  });
  if (!response.ok)
    throw new Error(`The server answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffered = '';
  let text = '';
  let first;
  let last;
  let count;
  let finish;
  for await (const bytes of response.body) {
    const now = performance.now();
    buffered += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end).replace(/^data: /, '');
      buffered = buffered.slice(end + 2);
      if (event === '[DONE]') continue;
      const chunk = JSON.parse(event);
      if (chunk.error) throw new Error(`The server failed mid-stream: ${chunk.error.message}`);
      if (chunk.usage) count = chunk.usage.completion_tokens;
      const choice = chunk.choices[0];
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (choice?.delta?.content) {
        first ??= now;
        last = now;
        text += choice.delta.content;
      }
    }
  }
  if (count === undefined) throw new Error('The stream had no usage chunk');
  return {
    tokens: count,
    tps: rate(count, first, last),
    ttftMs: first - sent,
    endMs: last - sent,
    full: finish === 'length' && count === tokens,
    end: `${count} tokens, finish_reason ${finish}`,
    text,
  };
}

// --- the runs -------------------------------------------------------------------------------------

const size = statSync(file).size;
print('Local model benchmark');
print(
  `  model:   ${basename(file)}, ${fixed(size / 2 ** 20, 1)} MiB, general.name "${metadataName ?? '(none)'}"`,
);
print(
  `  engine:  node-llama-cpp (llama.cpp), CPU build, ${threads} thread${threads === 1 ? '' : 's'}, context ${contextSize} tokens a sequence, ${SEQUENCES} sequences`,
);
print(
  `  asked:   ${tokens} tokens, JSON-schema grammar of ${tokens} required strings in both paths, temperature ${TEMPERATURE}, seed ${SEED}`,
);
print(
  `  machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${fixed(totalmem() / 2 ** 30, 0)} GiB, ${platform()} ${release()}, Node ${process.version}`,
);
print(`  date:    ${new Date().toISOString()}`);
print(`  load:    1-min load average ${fixed(loadBefore, 2)} before the runs`);
if (loadBefore > 0.5) {
  print(
    '  WARNING: the machine is busy (1-min load average above 0.5): llama.cpp threads spin, so these figures are low; run again on an idle machine.',
  );
}
print();

// Each path's runs (tokens per second) and errors: a run that fails is counted, not thrown.
const paths = new Map();
const pathOf = (name) => paths.get(name) ?? paths.set(name, new Samples()).get(name);
/** `run(label)`'s result, recorded on the path `name`; undefined when it failed. */
async function attempt(name, run, label) {
  try {
    const result = await run(label);
    pathOf(name).add(result.tps);
    return result;
  } catch (error) {
    pathOf(name).fail(error);
    return undefined;
  }
}

// Warm-up: grammar compiled, caches filled, the first request's costs paid; not counted (a
// failure shows again in the runs, which report it).
await floorRun('warm-up').catch(() => undefined);
await serverRun('warm-up').catch(() => undefined);

const floor = [];
const chatMs = [];
const served = [];
const ratios = [];
let sameText = 0;
for (let index = 0; index < runs; index += 1) {
  const label = `run ${index + 1}`;
  // ABBA: half the runs start with the floor, half with the server, so drift falls on both.
  let floorResult;
  let serverResult;
  if (index % 2 === 0) {
    floorResult = await attempt('floor', floorRun, label);
    serverResult = await attempt('server', serverRun, label);
  } else {
    serverResult = await attempt('server', serverRun, label);
    floorResult = await attempt('floor', floorRun, label);
  }
  if (floorResult) floor.push(floorResult);
  if (serverResult) served.push(serverResult);
  chatMs.push(newChatMs());
  if (!floorResult || !serverResult) {
    print(`  ${label}: failed (${floorResult ? 'server' : 'floor'}), not comparable`);
    continue;
  }
  ratios.push(serverResult.tps / floorResult.tps);
  if (floorResult.text === serverResult.text) sameText += 1;
  print(
    `  ${label}: floor ${fixed(floorResult.tps)} tok/s (first text ${fixed(floorResult.ttftMs)} ms), server ${fixed(serverResult.tps)} tok/s (TTFT ${fixed(serverResult.ttftMs)} ms), ratio ${fixed(serverResult.tps / floorResult.tps, 3)}` +
      (floorResult.full && serverResult.full ? '' : ' — ENDED EARLY, not comparable'),
  );
}
const floorTps = median(floor.map((result) => result.tps));
const serverTps = median(served.map((result) => result.tps));
print();
print(`Generation, ${runs} runs of ${tokens} tokens, median (min–max):`);
print(
  `  floor (LlamaChat.generateResponse)   ${spread(floor.map((result) => result.tps))} tok/s; first text after ${spread(floor.map((result) => result.ttftMs))} ms`,
);
print(
  `  server (HTTP, SSE, fetch)            ${spread(served.map((result) => result.tps))} tok/s; TTFT ${spread(served.map((result) => result.ttftMs))} ms from the request sent`,
);
print(
  `  server ÷ floor                       ${fixed(serverTps / floorTps, 3)} of the medians; per run ${spread(ratios, 3)} (goal ≥ ${GOAL_RATIO}: ${serverTps / floorTps >= GOAL_RATIO ? 'met' : 'NOT met'})`,
);
print(
  `  answers: ${[...floor, ...served].every((result) => result.full) ? `all ${tokens} tokens long` : 'SOME ENDED EARLY'}; the floor and the server wrote the same text in ${sameText} of ${runs} runs`,
);
print(
  `  new LlamaChat with the resolved wrapper (the server makes one a request, the floor one for all): ${spread(chatMs)} ms`,
);

print();
print(
  `Concurrent streaming requests (server: ${SEQUENCES} sequences), ${runs} runs each, median (min–max):`,
);
for (const concurrency of CONCURRENCY) {
  const totals = [];
  const generating = [];
  const ttfts = [];
  const each = [];
  for (let index = 0; index < runs; index += 1) {
    const results = await Promise.all(
      Array.from({ length: concurrency }, (_, request) =>
        attempt(
          `${concurrency} at once`,
          serverRun,
          `${concurrency} at once, run ${index + 1}, request ${request + 1}`,
        ),
      ),
    );
    // A batch with a failed request is no measure of the batch.
    if (results.includes(undefined)) continue;
    // Every request is sent in the same tick: the last one's end is the batch's wall time.
    const wallMs = Math.max(...results.map((result) => result.endMs));
    const all = results.reduce((sum, result) => sum + result.tokens, 0);
    totals.push((all * 1000) / wallMs);
    // While all of them write: the tokens after each one's first, from the first one's first.
    const firstMs = Math.min(...results.map((result) => result.ttftMs));
    generating.push(((all - concurrency) * 1000) / (wallMs - firstMs));
    for (const result of results) {
      ttfts.push(result.ttftMs);
      each.push(result.tps);
      if (!result.full) {
        print(
          `  (a request of ${concurrency} at once ended early: ${result.end}; counted as it came)`,
        );
      }
    }
  }
  print(
    `  ${concurrency} at once: total ${spread(totals)} tok/s from sending to the last token (${spread(generating)} from the first token); each request ${spread(each)} tok/s; TTFT ${spread(ttfts)} ms`,
  );
}

const loadAfter = loadavg()[0];
const finished = { wall: performance.now(), machine: machineBusyMs(), own: ownBusyMs() };
print();
if (started.machine !== undefined && finished.machine !== undefined) {
  const wall = finished.wall - started.wall;
  const others = finished.machine - started.machine - (finished.own - started.own);
  const otherCores = Math.max(0, others) / wall;
  print(
    `Meanwhile: this process used ${fixed((finished.own - started.own) / wall, 2)} cores, everything else ${fixed(otherCores, 2)} cores (/proc/stat) over ${fixed(wall / 1000, 0)} s; 1-min load average ${fixed(loadAfter, 2)} at the end.`,
  );
  if (otherCores > 0.2) {
    print(
      "  WARNING: other processes ran during the benchmark: these are a busy machine's figures.",
    );
  }
} else {
  print(
    `Meanwhile: 1-min load average ${fixed(loadAfter, 2)} at the end (this benchmark's own threads included).`,
  );
}

await server.close();
floorChat.dispose({ disposeSequence: false });
await context.dispose();
await model.dispose();
await llama.dispose();
reportFailures([...paths]);
