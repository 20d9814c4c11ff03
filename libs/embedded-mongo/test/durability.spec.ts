import { describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { start, StoreLockedError } from '../src/index.js';

const bin = fileURLToPath(new URL('../bin/embedded-mongo.js', import.meta.url));

/**
 * The built server in a child process, as `npx embedded-mongo` runs it, on a port the system
 * picks; its URL is the one it prints.
 */
async function spawnServer(dbPath: string): Promise<{ child: ChildProcess; uri: string }> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const uri = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening at (mongodb:\/\/\S+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}:\n${output}`));
    });
  });
  return { child, uri };
}

describe('durability', () => {
  it('keeps every acknowledged insert across a SIGKILL mid-write, and reopens', async () => {
    const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-crash-'));
    try {
      const { child, uri } = await spawnServer(dbPath);
      const client = new MongoClient(uri, {
        serverSelectionTimeoutMS: 2_000,
        retryWrites: false,
      });
      await client.connect();
      const rows = client.db('crash').collection<{ _id: number; writer: number }>('rows');
      const acknowledged: number[] = [];
      let next = 0;
      let killed = false;
      const writer = async (id: number) => {
        while (!killed) {
          const value = next++;
          try {
            await rows.insertOne({ _id: value, writer: id });
            if (!killed) acknowledged.push(value);
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, id) => writer(id));
      await new Promise((resolve) => setTimeout(resolve, 400));
      killed = true;
      child.kill('SIGKILL');
      await Promise.all(writers);
      await client.close(true);
      expect(acknowledged.length).toBeGreaterThan(50);

      // The stale lock is taken over.
      const { child: restarted, uri: restartedUri } = await spawnServer(dbPath);
      const again = await MongoClient.connect(restartedUri);
      const stored = await again
        .db('crash')
        .collection('rows')
        .find({}, { projection: { _id: 1 } })
        .toArray();
      const ids = new Set(stored.map((row) => row['_id'] as number));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      await again.close();
      const exited = new Promise((resolve) => restarted.once('exit', resolve));
      restarted.kill('SIGTERM');
      await exited;
    } finally {
      rmSync(dbPath, { recursive: true, force: true });
    }
  });

  it('restarts at once after a SIGKILL, 20 times over, with every acknowledged write', async () => {
    const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-restarts-'));
    const acknowledged: number[] = [];
    try {
      let next = 0;
      for (let round = 0; round < 20; round += 1) {
        // Started while the killed server before it may not even be reaped yet.
        const { child, uri } = await spawnServer(dbPath);
        const client = new MongoClient(uri, {
          serverSelectionTimeoutMS: 2_000,
          retryWrites: false,
        });
        await client.connect();
        const rows = client.db('restarts').collection<{ _id: number }>('rows');
        let killed = false;
        const writer = async () => {
          while (!killed) {
            const value = next++;
            try {
              await rows.insertOne({ _id: value });
              if (!killed) acknowledged.push(value);
            } catch {
              return;
            }
          }
        };
        const writers = Array.from({ length: 4 }, () => writer());
        await new Promise((resolve) => setTimeout(resolve, 50));
        killed = true;
        child.kill('SIGKILL');
        await Promise.all(writers);
        await client.close(true);
      }
      const { child, uri } = await spawnServer(dbPath);
      const client = await MongoClient.connect(uri);
      const stored = await client.db('restarts').collection('rows').find({}).toArray();
      const ids = new Set(stored.map((row) => row['_id'] as number));
      expect(acknowledged.length).toBeGreaterThan(20);
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      await client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    } finally {
      rmSync(dbPath, { recursive: true, force: true });
    }
  }, 60_000);

  it('starts over a lock file naming its own process id (a container after a crash)', async () => {
    const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-samepid-'));
    try {
      // The server in a container has the same small process id at every start.
      writeFileSync(join(dbPath, 'mongod.lock'), String(process.pid));
      const server = await start({ port: 0, dbPath });
      await server.stop();
    } finally {
      rmSync(dbPath, { recursive: true, force: true });
    }
  });

  it('refuses a second server on the same dbPath (which it creates when missing)', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'embedded-mongo-lock-')), 'new', 'store');
    const first = await start({ port: 0, dbPath });
    try {
      await expect(start({ port: 0, dbPath })).rejects.toBeInstanceOf(StoreLockedError);
    } finally {
      await first.stop();
      rmSync(dbPath, { recursive: true, force: true });
    }
  });

  it('refuses a non-loopback address unless allowed', async () => {
    await expect(start({ port: 0, dbPath: tmpdir(), host: '0.0.0.0' })).rejects.toThrow(
      /no authentication/,
    );
  });

  it('compacts by itself once the journal outgrows the live data', async () => {
    const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-auto-'));
    const server = await start({ port: 0, dbPath, compaction: { ratio: 3, minBytes: 64 * 1024 } });
    const client = await MongoClient.connect(server.uri);
    try {
      const notes = client.db('auto').collection<{ _id: string; text: string; n: number }>('notes');
      await notes.insertOne({ _id: 'only', text: 'x'.repeat(200), n: 0 });
      let largest = 0;
      for (let i = 1; i <= 2_000; i += 1) {
        await notes.updateOne({ _id: 'only' }, { $set: { n: i } });
        largest = Math.max(largest, server.journalBytes());
      }
      // 2,000 versions of a 250-byte document would be ~600 KB without compaction.
      expect(largest).toBeLessThan(80 * 1024);
      expect(await notes.findOne({ _id: 'only' })).toMatchObject({ n: 2_000 });
    } finally {
      await client.close();
      await server.stop();
      rmSync(dbPath, { recursive: true, force: true });
    }
  });

  it('compacts the journal to the live data and reopens with the same documents', async () => {
    const dbPath = mkdtempSync(join(tmpdir(), 'embedded-mongo-compact-'));
    try {
      let server = await start({ port: 0, dbPath });
      let client = await MongoClient.connect(server.uri);
      const counters = client.db('compact').collection<{ _id: string; n: number }>('counters');
      await counters.createIndex({ n: 1 });
      await client.db('compact').createCollection('named', {
        validator: { $jsonSchema: { required: ['name'] } },
      });
      await client.db('compact').command({ collMod: 'named', validationLevel: 'moderate' });
      await counters.insertOne({ _id: 'c', n: 0 });
      for (let i = 0; i < 200; i += 1) await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } });
      const before = server.journalBytes();
      await server.compact();
      expect(server.journalBytes()).toBeLessThan(before / 10);
      await counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } });
      await client.close();
      await server.stop();

      server = await start({ port: 0, dbPath });
      client = await MongoClient.connect(server.uri);
      const reopened = client.db('compact').collection('counters');
      expect(await reopened.findOne({ _id: 'c' as never })).toEqual({ _id: 'c', n: 201 });
      expect((await reopened.listIndexes().toArray()).map((index) => index['name'])).toEqual([
        '_id_',
        'n_1',
      ]);
      // The validator and its level, from the compacted journal and the records after it.
      const [named] = await client.db('compact').listCollections({ name: 'named' }).toArray();
      expect(named?.['options']).toEqual({
        validator: { $jsonSchema: { required: ['name'] } },
        validationLevel: 'moderate',
      });
      await expect(client.db('compact').collection('named').insertOne({})).rejects.toMatchObject({
        code: 121,
      });
      await client.close();
      await server.stop();
    } finally {
      rmSync(dbPath, { recursive: true, force: true });
    }
  });
});
