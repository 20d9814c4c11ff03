import { afterAll, beforeAll } from '@jest/globals';
import { type Db, MongoClient } from 'mongodb';
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

export interface Connected {
  readonly target: Target;
  readonly client: MongoClient;
  readonly db: Db;
}

/**
 * For a suite: a target server, a driver client on it and a fresh database, ready in beforeAll
 * (after `prepare`, if given) and dropped and closed in afterAll. Read the fields inside tests.
 */
export function useDatabase(prefix: string, prepare?: (db: Db) => Promise<void>): Connected {
  const state: { target?: Target; client?: MongoClient; db?: Db } = {};
  beforeAll(async () => {
    state.target = await startTarget();
    state.client = await MongoClient.connect(state.target.uri, { serverSelectionTimeoutMS: 5_000 });
    state.db = state.client.db(freshDatabase(prefix));
    await prepare?.(state.db);
  });
  afterAll(async () => {
    await state.db?.dropDatabase();
    await state.client?.close();
    await state.target?.stop();
  });
  const required = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not ready: use it inside a test`);
    return value;
  };
  return {
    get target() {
      return required(state.target, 'target');
    },
    get client() {
      return required(state.client, 'client');
    },
    get db() {
      return required(state.db, 'db');
    },
  };
}
