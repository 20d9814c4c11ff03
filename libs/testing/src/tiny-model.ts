import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const script = fileURLToPath(new URL('../../../scripts/tiny-model.mjs', import.meta.url));

/**
 * The tests' tiny GGUF model (random weights, a printable-ASCII vocabulary): made once by
 * scripts/tiny-model.mjs with PyPI's gguf package and cached, so a test runs the real llama.cpp
 * engine without downloading any weights. Answers the file's path.
 */
export async function tinyModelFile(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 300_000 });
  return stdout.trim();
}
