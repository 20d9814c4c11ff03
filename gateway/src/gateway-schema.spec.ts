import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFile } from 'node:fs/promises';
import { createGateway } from './create-gateway.js';
import {
  printGatewaySchema,
  printSchemaCommand,
  schemaFile,
  schemaFileText,
} from './gateway-schema.js';

/** Where two texts first differ, line by line, to say what is out of date. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const have = actual.split('\n');
  const line = want.findIndex((text, index) => text !== have[index]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: expected ${JSON.stringify(want[at] ?? '(end)')}, found ${JSON.stringify(have[at] ?? '(end)')}`;
}

describe('schema.graphql', () => {
  let printed: string;

  beforeAll(async () => {
    printed = await printGatewaySchema();
  });

  it('is the schema the resolvers define', async () => {
    const file = await readFile(schemaFile, 'utf8').catch(() => '');
    if (file !== printed) {
      throw new Error(
        `gateway/schema.graphql is out of date (${firstDifference(printed, file)}): ` +
          `run \`${printSchemaCommand}\` to rewrite it, and commit it with the resolvers.`,
      );
    }
  });

  describe('as the gateway serves it', () => {
    let app: NestFastifyApplication;

    beforeAll(async () => {
      // Initialised, not listening: the GraphQL module builds its schema at init.
      app = await createGateway({ transport: inProcessTransport(), logLevel: 'silent' });
      await app.init();
    });

    afterAll(async () => {
      await app?.close();
    });

    it('is the printed one', async () => {
      expect(await schemaFileText(app.get(GraphQLSchemaHost).schema)).toBe(printed);
    });
  });
});
