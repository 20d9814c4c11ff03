// The tiny test model of libs/embedded-model: a 0.5 MB GGUF with random weights that llama.cpp
// loads in milliseconds, so the local model server is tested end to end without the real 1.1 GB
// model. It is generated, not downloaded: libs/embedded-model/fixtures/make-tiny-model.py writes
// it with the `gguf` Python package (MIT, llama.cpp's own writer), installed at a pinned version
// into a venv of the cache:
//   $XDG_CACHE_HOME/debate/gguf-venv                      (or ~/.cache/debate/…)
//   $XDG_CACHE_HOME/debate/models/tiny-<hash>.gguf        <hash>: the generator's, so an edit to it
//                                                         makes a new model
//
//   node scripts/tiny-model.mjs        makes what is missing and prints the model's path
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cacheRoot, hasCommand, root } from './workspace.mjs';

export const GGUF_VERSION = '0.19.0';

const generator = join(root, 'libs', 'embedded-model', 'fixtures', 'make-tiny-model.py');
const venv = join(cacheRoot, 'gguf-venv');
const venvPython = join(venv, 'bin', 'python');
/** Written last into a venv, so a venv without it (interrupted, or another version) is redone. */
const venvReady = join(venv, `ready-gguf-${GGUF_VERSION}`);

const run = promisify(execFile);

/** Runs a command to completion; a failure says what ran and what it printed. */
async function runOrExplain(command, args, what) {
  try {
    await run(command, args, { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(
      `${what} failed: ${command} ${args.join(' ')} (${error.code ?? error.signal})` +
        (output ? `\n${output}` : ''),
    );
  }
}

/** A name beside `path` that no other process picks, to write to and then rename into place. */
const temporaryName = (path) => `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;

/** The venv with gguf installed, made (once) when missing. */
async function ensureVenv() {
  if (existsSync(venvReady)) return;
  if (!hasCommand('python3')) {
    throw new Error(
      'The tiny test model is generated with Python, and python3 is not on PATH. Install ' +
        'Python 3 with its venv module (on Debian: apt-get install python3 python3-venv) and run ' +
        'this again.',
    );
  }
  await mkdir(cacheRoot, { recursive: true });
  process.stderr.write(
    `tiny model: installing gguf==${GGUF_VERSION} into ${venv} (once, about a minute)\n`,
  );
  // Made aside and renamed into place: parallel test workers each make one, the first rename
  // wins, and nobody runs a half-installed venv. Only `bin/python` is run from it, which finds
  // its venv by its own path, so the rename does not break it.
  const aside = temporaryName(venv);
  try {
    await runOrExplain(
      'python3',
      ['-m', 'venv', aside],
      'Making a Python venv (on Debian it needs the python3-venv package)',
    );
    await runOrExplain(
      join(aside, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `gguf==${GGUF_VERSION}`],
      `Installing gguf==${GGUF_VERSION} (from PyPI)`,
    );
    await writeFile(join(aside, `ready-gguf-${GGUF_VERSION}`), '');
    if (existsSync(venvReady)) return; // another process finished first
    // A venv there without the marker is another version's or an interrupted one's (a venv of
    // this code's only ever appears whole, marker included).
    if (existsSync(venv)) await rm(venv, { recursive: true, force: true });
    try {
      await rename(aside, venv);
    } catch (error) {
      // Another process renamed its venv in between: use that one.
      if (!existsSync(venvReady)) throw error;
    }
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/** The path of the tiny test model, generated first when missing. */
export async function tinyModelPath() {
  const source = await readFile(generator);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const model = join(cacheRoot, 'models', `tiny-${hash}.gguf`);
  if (existsSync(model)) return model;
  await ensureVenv();
  await mkdir(join(cacheRoot, 'models'), { recursive: true });
  // Written aside and renamed: a test worker never sees half a file.
  const aside = temporaryName(model);
  try {
    await runOrExplain(venvPython, [generator, aside], 'Generating the tiny test model');
    await rename(aside, model);
  } finally {
    await rm(aside, { force: true });
  }
  return model;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.stdout.write(`${await tinyModelPath()}\n`);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
