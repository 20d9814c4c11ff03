import { beforeEach, describe, expect, it } from '@jest/globals';
import { BSON } from 'bson';
import type { Db } from 'mongodb';
import { connect, type Socket } from 'node:net';
import { type Connected, useDatabase } from './target.js';

const OP_MSG = 2013;
// MongoDB itself closes a connection that sends an oversized message: only the embedded server
// promises to answer and keep it.
const itEmbedded = process.env['MONGO_URL'] ? it.skip : it;

function opMsg(requestId: number, body: object): Buffer {
  const bson = BSON.serialize(body);
  const head = Buffer.alloc(21);
  head.writeInt32LE(21 + bson.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(OP_MSG, 12);
  head.writeUInt32LE(0, 16);
  head.writeUInt8(0, 20);
  return Buffer.concat([head, bson]);
}

/** Reads the next whole OP_MSG reply from the socket and returns its body. */
function nextReply(socket: Socket): Promise<{ responseTo: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length < 4 || data.length < data.readInt32LE(0)) return;
      socket.off('data', onData);
      resolve({
        responseTo: data.readInt32LE(8),
        body: BSON.deserialize(data.subarray(21, data.readInt32LE(0))),
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

describe('limits', () => {
  const connected = useDatabase('limits');
  let db: Db;
  let target: Connected['target'];

  beforeEach(() => {
    ({ db, target } = connected);
  });

  it('refuses a document over 16 MiB, stores nothing, and keeps the connection', async () => {
    const big = { _id: 'big', text: 'x'.repeat(16 * 1024 * 1024 + 10) };
    const error = await db
      .collection('docs')
      .insertOne(big as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/too large|larger than|BSONObjectTooLarge|maximum/i);
    expect(await db.collection('docs').countDocuments({ _id: 'big' as never })).toBe(0);
    await db.collection('docs').insertOne({ _id: 'small' as never });
    expect(await db.collection('docs').countDocuments()).toBe(1);
  });

  itEmbedded(
    'answers a message over 48 MB with an error and stays usable on the same connection',
    async () => {
      const url = new URL(target.uri);
      const socket = connect(Number(url.port || 27017), url.hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      try {
        const length = 48_000_000 + 1024;
        const head = Buffer.alloc(16);
        head.writeInt32LE(length, 0);
        head.writeInt32LE(7, 4);
        head.writeInt32LE(0, 8);
        head.writeInt32LE(OP_MSG, 12);
        const reply = nextReply(socket);
        socket.write(head);
        const filler = Buffer.alloc(1024 * 1024);
        for (let sent = 16; sent < length; sent += filler.length) {
          const part = filler.subarray(0, Math.min(filler.length, length - sent));
          if (!socket.write(part)) await new Promise((resolve) => socket.once('drain', resolve));
        }
        const refused = await reply;
        expect(refused.responseTo).toBe(7);
        expect(refused.body['ok']).toBe(0);
        expect(String(refused.body['errmsg'])).toMatch(/exceeds the maximum/);

        const ping = nextReply(socket);
        socket.write(opMsg(8, { ping: 1, $db: 'admin' }));
        expect(await ping).toEqual({ responseTo: 8, body: { ok: 1 } });
      } finally {
        socket.destroy();
      }
    },
  );
});
