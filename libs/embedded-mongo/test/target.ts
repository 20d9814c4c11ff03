import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../src/index.js';

export interface Target {
  /** A URL of a server with a database of its own for this suite. */
  readonly uri: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

/**
 * The server the conformance tests talk to: the embedded one on a fresh temporary directory,
 * or, unchanged, a real MongoDB when MONGO_URL is set.
 */
export async function startTarget(): Promise<Target> {
  const external = process.env['MONGO_URL'];
  if (external) return { uri: external, embedded: false, stop: async () => undefined };
  const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-'));
  const server = await start({ port: 0, dbPath });
  return {
    uri: server.uri,
    embedded: true,
    stop: async () => {
      await server.stop();
      rmSync(dbPath, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A database name no other test uses. */
export function freshDatabase(prefix: string): string {
  counter += 1;
  return `${prefix}_${process.pid}_${Date.now()}_${counter}`;
}
