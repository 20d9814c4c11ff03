import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_LOCAL_MODEL, mirroredModel } from './default-model.js';
import { modelStateReporter } from './progress.js';
import { startModelServer } from './server.js';

const synopsis =
  'usage: embedded-model --port <n> (--model-file <path> | --cache-dir <dir> [--model-url <url> --model-sha256 <hex>])\n' +
  '                      [--host <address> --allow-remote] [--threads <n>] [--context-size <n>]\n' +
  '                      [--sequences <n>] [--max-queue <n>] [--gpu]\n';
const usage =
  synopsis +
  'An OpenAI-compatible chat-completions server (/v1/models, /v1/chat/completions, /health) on\n' +
  'llama.cpp, for development, tests and small installs. --model-file serves a GGUF on disk;\n' +
  `--cache-dir fetches ${DEFAULT_LOCAL_MODEL.name} (${Math.round((DEFAULT_LOCAL_MODEL.bytes ?? 0) / 1e6)} MB, ` +
  `${DEFAULT_LOCAL_MODEL.license}) into that folder first,\n` +
  'resuming a broken download and checking its checksum; --model-url with --model-sha256 fetches\n' +
  'from there instead (a mirror of the same file, or another GGUF with its SHA-256). Until the model is ready every request is\n' +
  'answered 503, so a client falls back to its other models. It has no authentication: it binds\n' +
  '127.0.0.1 unless --host names another address and --allow-remote confirms it. --threads\n' +
  "defaults to half the machine's cores (llama.cpp's threads spin: leave the rest to the others).\n" +
  '--gpu uses a GPU build of llama.cpp where one is installed (docs/local-model.md); else the CPU.\n';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '8090' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-remote': { type: 'boolean', default: false },
      'model-file': { type: 'string' },
      'cache-dir': { type: 'string' },
      'model-url': { type: 'string' },
      'model-sha256': { type: 'string' },
      threads: { type: 'string' },
      'context-size': { type: 'string' },
      sequences: { type: 'string' },
      'max-queue': { type: 'string' },
      gpu: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  process.stderr.write(
    `embedded-model: ${(error as Error).message}\n${synopsis}(--help says more)\n`,
  );
  process.exit(2);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const problems: string[] = [];
/** An integer option within [min, max]; undefined when not given. */
function integer(flag: string, text: string | undefined, min: number, max: number) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    problems.push(`--${flag} must be a whole number from ${min} to ${max} (got ${text})`);
    return undefined;
  }
  return value;
}
const port = integer('port', values.port, 0, 65_535);
const threads = integer('threads', values.threads, 1, 1024);
const contextSize = integer('context-size', values['context-size'], 256, 1_048_576);
const sequences = integer('sequences', values.sequences, 1, 64);
const maxQueue = integer('max-queue', values['max-queue'], 0, 10_000);
const modelFile = values['model-file'];
const cacheDir = values['cache-dir'];
if (modelFile !== undefined && cacheDir !== undefined) {
  problems.push('give --model-file or --cache-dir, not both');
} else if (modelFile === undefined && cacheDir === undefined) {
  problems.push(
    'give --model-file <path> (a GGUF on this machine) or --cache-dir <dir> (where to fetch the default model)',
  );
} else if (modelFile !== undefined && !(existsSync(modelFile) && statSync(modelFile).isFile())) {
  problems.push(`--model-file ${modelFile}: no such file`);
} else if (cacheDir !== undefined && existsSync(cacheDir) && !statSync(cacheDir).isDirectory()) {
  problems.push(`--cache-dir ${cacheDir}: not a folder`);
}
const modelUrl = values['model-url'];
const modelSha256 = values['model-sha256'];
let download = DEFAULT_LOCAL_MODEL;
if ((modelUrl === undefined) !== (modelSha256 === undefined)) {
  problems.push(
    'give --model-url and --model-sha256 together (a download is only used when it hashes to the digest)',
  );
} else if (modelUrl !== undefined && modelSha256 !== undefined) {
  if (modelFile !== undefined) {
    problems.push('give --model-file or --model-url, not both');
  } else {
    try {
      download = mirroredModel(modelUrl, modelSha256);
    } catch (error) {
      problems.push(`--model-url/--model-sha256: ${(error as Error).message}`);
    }
  }
}
if (!LOOPBACK.test(values.host) && !values['allow-remote']) {
  problems.push(
    `--host ${values.host} would open the server (which has no authentication) to the network: add --allow-remote to confirm`,
  );
}
if (problems.length > 0) {
  process.stderr.write(`embedded-model: ${problems.join('; ')}\n${synopsis}(--help says more)\n`);
  process.exit(2);
}

const say = (line: string) => process.stdout.write(`${line}\n`);
try {
  const server = await startModelServer({
    host: values.host,
    ...(port === undefined ? {} : { port }),
    source: modelFile ? { file: modelFile } : { download, cacheDir: cacheDir as string },
    ...(threads === undefined ? {} : { threads }),
    ...(contextSize === undefined ? {} : { contextSize }),
    ...(sequences === undefined ? {} : { sequences }),
    ...(maxQueue === undefined ? {} : { maxQueue }),
    gpu: values.gpu,
    logger: {
      log: (message) => say(message),
      warn: (message) => process.stderr.write(`${message}\n`),
    },
    onState: modelStateReporter({
      // The server itself says when the model is ready (through the logger).
      write: say,
      failed: (reason, during) =>
        `The local model could not be ${modelFile || during === 'load' ? 'loaded' : 'fetched'} (${reason}): ` +
        'this server goes on answering 503 to every request, so its clients fall back to their other models. ' +
        (modelFile
          ? 'Give it another GGUF file with --model-file.'
          : 'To use a file already on this machine: --model-file /path/to/model.gguf.'),
    }),
  });
  say(
    `embedded-model listening at ${server.origin} (OpenAI-compatible API at ${server.url}; ` +
      `${modelFile ? `model ${modelFile}` : `${download.name}${modelUrl ? ` from ${modelUrl}` : ''}, cached in ${cacheDir}`})`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stderr.write(`embedded-model: ${(error as Error).message}\n`);
  process.exit(1);
}
