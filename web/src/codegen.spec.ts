/**
 * @jest-environment node
 */
import { generate } from '@graphql-codegen/cli';
import { describe, it } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { format, resolveConfig } from 'prettier';
import config from '../codegen';

const CODEGEN_COMMAND = 'npx nx run web:codegen';

/** A file the generator gives (its `generate` is typed `any`: the FileOutput it returns). */
interface GeneratedFile {
  readonly filename: string;
  readonly content: string;
}

/** Where two texts first differ, line by line, to say what is out of date. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const have = actual.split('\n');
  const line = want.findIndex((text, index) => text !== have[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: expected ${JSON.stringify(want[at] ?? '(end)')}, found ${JSON.stringify(have[at] ?? '(end)')}`;
}

describe('src/gql', () => {
  it('is what gateway/schema.graphql and the operations generate', async () => {
    // In memory (false: nothing written), then formatted as web:codegen formats what it writes.
    const outputs: readonly GeneratedFile[] = await generate(config, false);
    const problems: string[] = [];
    for (const { filename, content } of outputs) {
      const expected = await format(content, {
        ...(await resolveConfig(filename)),
        filepath: filename,
      });
      const actual = await readFile(filename, 'utf8').catch(() => null);
      if (actual === null) problems.push(`${basename(filename)} is missing`);
      else if (actual !== expected) {
        problems.push(`${basename(filename)}, ${firstDifference(expected, actual)}`);
      }
    }
    // A file the generator no longer writes (an operation's old home) is out of date too.
    const folder = dirname(outputs[0]?.filename ?? '');
    const generated = new Set(outputs.map(({ filename }) => basename(filename)));
    for (const name of await readdir(folder)) {
      if (!generated.has(name)) problems.push(`${name} is not generated any more`);
    }
    if (problems.length > 0) {
      throw new Error(
        `web/src/gql is out of date (${problems.join('; ')}): run \`${CODEGEN_COMMAND}\` ` +
          'and commit what it writes with the schema or the operations.',
      );
    }
  }, 60_000);
});
