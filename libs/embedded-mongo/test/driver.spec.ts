import { beforeEach, describe, expect, it } from '@jest/globals';
import { type Db, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import { type Connected, useDatabase } from './target.js';

describe('the official driver against the server', () => {
  const connected = useDatabase('driver');
  let db: Db;
  let client: MongoClient;
  let target: Connected['target'];

  beforeEach(() => {
    ({ db, client, target } = connected);
  });

  it('sorts with ties and mixed types in MongoDB order, and pages by cursor', async () => {
    const items = db.collection<{ _id: number; v?: unknown }>('mixed');
    await items.insertMany([
      { _id: 1, v: 'b' },
      { _id: 2, v: 10 },
      { _id: 3 },
      { _id: 4, v: null },
      { _id: 5, v: 2.5 },
      { _id: 6, v: 'a' },
      { _id: 7, v: new Date(0) },
      { _id: 8, v: true },
      { _id: 9, v: 10 },
    ]);
    const order = await items.find({}, { sort: { v: 1, _id: 1 } }).toArray();
    expect(order.map((item) => item._id)).toEqual([3, 4, 5, 2, 9, 6, 1, 8, 7]);

    const pageOne = await items.find({ _id: { $gt: 0 } }, { sort: { _id: 1 }, limit: 4 }).toArray();
    const last = pageOne.at(-1)?._id ?? 0;
    const pageTwo = await items
      .find({ _id: { $gt: last } }, { sort: { _id: 1 }, limit: 4 })
      .toArray();
    expect(pageOne.map((item) => item._id)).toEqual([1, 2, 3, 4]);
    expect(pageTwo.map((item) => item._id)).toEqual([5, 6, 7, 8]);
  });

  it('returns a large result over several getMore batches', async () => {
    const rows = db.collection<{ i: number }>('rows');
    await rows.insertMany(Array.from({ length: 1_000 }, (_, i) => ({ i })));
    const seen: number[] = [];
    for await (const row of rows.find({}, { batchSize: 100, sort: { i: 1 } })) seen.push(row.i);
    expect(seen).toHaveLength(1_000);
    expect(seen.slice(0, 3)).toEqual([0, 1, 2]);
    expect(seen.at(-1)).toBe(999);
  });

  it('enforces a compound unique index on insert and on update', async () => {
    const votes = db.collection<{ debate: string; user: string; value: number }>('votes');
    await votes.createIndex({ debate: 1, user: 1 }, { unique: true });
    await votes.insertOne({ debate: 'd1', user: 'u1', value: 1 });
    await votes.insertOne({ debate: 'd1', user: 'u2', value: 1 });
    const insertError = await votes
      .insertOne({ debate: 'd1', user: 'u1', value: -1 })
      .catch((e: unknown) => e);
    expect(insertError).toBeInstanceOf(MongoServerError);
    expect((insertError as MongoServerError).code).toBe(11000);
    const updateError = await votes
      .updateOne({ user: 'u2' }, { $set: { user: 'u1' } })
      .catch((e: unknown) => e);
    expect((updateError as MongoServerError).code).toBe(11000);
    expect(await votes.countDocuments({ debate: 'd1', user: 'u1' })).toBe(1);
    const indexes = await votes.listIndexes().toArray();
    expect(indexes.map((index) => index['name'])).toEqual(['_id_', 'debate_1_user_1']);

    const conflict = await db
      .command({
        createIndexes: 'votes',
        indexes: [
          { key: { value: 1 }, name: 'value_1' },
          { key: { user: 1 }, name: 'debate_1_user_1' },
        ],
      })
      .catch((e: unknown) => e);
    expect((conflict as MongoServerError).code).toBe(86);
    expect((await votes.listIndexes().toArray()).map((index) => index['name'])).toEqual([
      '_id_',
      'debate_1_user_1',
    ]);
  });

  it('projects included fields and dotted paths as MongoDB does, and keeps the field order', async () => {
    const cards = db.collection('cards');
    const at = new Date('2026-01-02T03:04:05.000Z');
    await cards.insertMany([
      {
        _id: 'a',
        topic: 'T',
        sharedAt: at,
        model: { name: 'm', stance: 0.5 },
        votes: { u1: 'FOR', u2: 'AGAINST' },
        rounds: [{ text: 'long' }],
      },
      { _id: 'b', topic: 'U', votes: {}, model: 'not a document' },
      { _id: 'c', topic: 'V', votes: [{ u1: 'FOR', x: 1 }, { u2: 'AGAINST' }, 7] },
    ] as never[]);
    const read = (projection: Record<string, unknown>) =>
      cards.find({}, { projection, sort: { _id: 1 } }).toArray();

    const plain = await read({ votes: 1, topic: 1, 'model.name': 1 });
    expect(plain).toEqual([
      { _id: 'a', topic: 'T', model: { name: 'm' }, votes: { u1: 'FOR', u2: 'AGAINST' } },
      { _id: 'b', topic: 'U', votes: {} },
      { _id: 'c', topic: 'V', votes: [{ u1: 'FOR', x: 1 }, { u2: 'AGAINST' }, 7] },
    ]);
    // Fields come back in the stored document's order, not the projection's.
    expect(Object.keys(plain[0] ?? {})).toEqual(['_id', 'topic', 'model', 'votes']);

    expect(await read({ topic: 1, 'votes.u1': 1, _id: 0 })).toEqual([
      { topic: 'T', votes: { u1: 'FOR' } },
      { topic: 'U', votes: {} },
      // Through an array, the path projects each element that is a document.
      { topic: 'V', votes: [{ u1: 'FOR' }, {}] },
    ]);
    expect(await read({ _id: 1 })).toEqual([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
    // Anything else, an exclusion here, goes the general way.
    expect(await read({ rounds: 0, votes: 0, model: 0, sharedAt: 0 })).toEqual([
      { _id: 'a', topic: 'T' },
      { _id: 'b', topic: 'U' },
      { _id: 'c', topic: 'V' },
    ]);
  });

  it('runs the aggregation stages the services use', async () => {
    const debates = db.collection('debates');
    const stars = db.collection('stars');
    await debates.insertMany([
      { _id: 'a', category: 'Science', tags: ['x', 'y'] },
      { _id: 'b', category: 'Science', tags: ['y'] },
      { _id: 'c', category: 'Funny', tags: [] },
    ] as never[]);
    await stars.insertMany([{ debate: 'a' }, { debate: 'a' }, { debate: 'b' }]);
    const [result] = await debates
      .aggregate([
        { $match: { category: 'Science' } },
        { $lookup: { from: 'stars', localField: '_id', foreignField: 'debate', as: 'starred' } },
        { $addFields: { stars: { $size: '$starred' } } },
        { $unset: 'starred' },
        {
          $facet: {
            total: [{ $count: 'n' }],
            tags: [
              { $unwind: '$tags' },
              { $group: { _id: '$tags', n: { $sum: 1 } } },
              { $sort: { _id: 1 } },
            ],
            top: [{ $sort: { stars: -1 } }, { $limit: 1 }, { $project: { _id: 1, stars: 1 } }],
          },
        },
      ])
      .toArray();
    expect(result).toEqual({
      total: [{ n: 2 }],
      tags: [
        { _id: 'x', n: 1 },
        { _id: 'y', n: 2 },
      ],
      top: [{ _id: 'a', stars: 2 }],
    });
  });

  it('answers an unknown command and an unsupported stage with MongoDB errors, and stays usable', async () => {
    const unknown = await db.command({ noSuchCommand: 1 }).catch((e: unknown) => e);
    expect((unknown as MongoServerError).code).toBe(59);
    if (target.embedded) {
      const stage = await db
        .collection('rows')
        .aggregate([{ $out: 'elsewhere' }])
        .toArray()
        .catch((e: unknown) => e);
      expect((stage as MongoServerError).code).toBe(40324);
      expect((stage as MongoServerError).message).toMatch(/\$out/);
    }
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('refuses a transaction with a clear error on a standalone server', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      const error = await db
        .collection('rows')
        .insertOne({ i: -1 }, { session })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      // Refused before any write happens: by the driver (it sees a standalone in the handshake)
      // or by the server (code 20), as with a standalone MongoDB.
      expect((error as Error).message).toMatch(
        /Transaction numbers are only allowed on a replica set member or mongos|does not support retryable writes/,
      );
      expect(await db.collection('rows').countDocuments({ i: -1 })).toBe(0);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
  });

  it('applies unacknowledged writes (w: 0, sent with moreToCome)', async () => {
    const fire = db.collection('fire');
    await fire.insertOne({ n: 1 }, { writeConcern: { w: 0 } });
    await fire.updateOne({ n: 1 }, { $set: { seen: true } }, { writeConcern: { w: 0 } });
    const deadline = Date.now() + 2_000;
    let found = await fire.findOne({ n: 1 });
    while (!found?.['seen'] && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      found = await fire.findOne({ n: 1 });
    }
    expect(found).toMatchObject({ n: 1, seen: true });
  });

  it('updates many, with array filters, and deletes', async () => {
    const carts = db.collection('carts');
    await carts.insertMany([
      {
        user: 'a',
        items: [
          { sku: 1, qty: 1 },
          { sku: 2, qty: 5 },
        ],
      },
      { user: 'b', items: [{ sku: 2, qty: 2 }] },
      { user: 'c', items: [] },
    ]);
    const result = await carts.updateMany(
      { 'items.sku': 2 },
      { $inc: { 'items.$[line].qty': 10 } },
      { arrayFilters: [{ 'line.sku': 2 }] },
    );
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect((await carts.findOne({ user: 'a' }))?.['items']).toEqual([
      { sku: 1, qty: 1 },
      { sku: 2, qty: 15 },
    ]);
    await carts.updateOne({ user: 'b', 'items.sku': 2 }, { $set: { 'items.$.qty': 7 } });
    expect((await carts.findOne({ user: 'b' }))?.['items']).toEqual([{ sku: 2, qty: 7 }]);
    expect((await carts.deleteMany({ items: { $size: 0 } })).deletedCount).toBe(1);
    expect((await carts.findOneAndDelete({ user: 'b' }))?.['user']).toBe('b');
    expect(await carts.countDocuments()).toBe(1);
  });

  it('accepts the OP_MSG hello a client with serverApi opens with', async () => {
    const versioned = await MongoClient.connect(target.uri, {
      serverApi: { version: '1' },
      serverSelectionTimeoutMS: 5_000,
    });
    try {
      await versioned.db(db.databaseName).collection('api').insertOne({ v: 1 });
      expect(await versioned.db(db.databaseName).collection('api').countDocuments()).toBe(1);
    } finally {
      await versioned.close();
    }
  });

  it('gives each upserted document its own new _id', async () => {
    const keyed = db.collection('keyed');
    const first = await keyed.updateOne({ k: 1 }, { $set: { v: 1 } }, { upsert: true });
    const second = await keyed.updateOne({ k: 2 }, { $set: { v: 2 } }, { upsert: true });
    const third = await keyed.findOneAndUpdate(
      { k: 3 },
      { $set: { v: 3 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(first.upsertedId).toBeInstanceOf(ObjectId);
    expect(second.upsertedId).toBeInstanceOf(ObjectId);
    expect(second.upsertedId?.equals(first.upsertedId ?? '')).toBe(false);
    expect(third?.['_id']).toBeInstanceOf(ObjectId);
    expect(await keyed.countDocuments()).toBe(3);
  });

  // MongoDB's CRUD spec, aggregate-let 'Aggregate with let option' and updateMany-let
  // 'updateMany with let option': a variable's value is an expression, $literal included.
  it("evaluates a command's let variables as expressions, as MongoDB does", async () => {
    const coll = db.collection<{ _id: number; name?: string; x?: unknown; y?: unknown }>('lets');
    await coll.insertMany([{ _id: 1 }, { _id: 2, name: 'name' }, { _id: 3, name: 'name' }]);
    const aggregated = await coll
      .aggregate(
        [
          { $match: { $expr: { $eq: ['$_id', '$$id'] } } },
          { $project: { _id: 0, x: '$$x', y: '$$y', sum: '$$sum' } },
        ],
        { let: { id: 1, x: 'foo', y: { $literal: 'bar' }, sum: { $add: [1, 2] } } },
      )
      .toArray();
    expect(aggregated).toEqual([{ x: 'foo', y: 'bar', sum: 3 }]);

    await coll.updateMany(
      { $expr: { $eq: ['$name', '$$name'] } },
      [{ $set: { x: '$$x', y: '$$y' } }],
      { let: { name: 'name', x: 'foo', y: { $literal: 'bar' } } },
    );
    expect(await coll.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 1 },
      { _id: 2, name: 'name', x: 'foo', y: 'bar' },
      { _id: 3, name: 'name', x: 'foo', y: 'bar' },
    ]);
  });

  it('counts and lists distinct values', async () => {
    const words = db.collection('words');
    await words.insertMany([
      { w: 'a', n: 1 },
      { w: 'b', n: 2 },
      { w: 'a', n: 3 },
    ]);
    expect(await words.countDocuments({ w: 'a' })).toBe(2);
    expect((await words.distinct('w')).sort()).toEqual(['a', 'b']);
  });
});

describe('index use', () => {
  const connected = useDatabase('indexes', async (db) => {
    const rows = db.collection('rows');
    await rows.createIndex({ slug: 1 }, { unique: true });
    await rows.createIndex({ score: -1 });
    await rows.insertMany(
      Array.from({ length: 5_000 }, (_, i) => ({ slug: `row-${i}`, score: i % 1000, tag: i % 7 })),
    );
  });

  async function examined(filter: object, options: { sort?: object; limit?: number } = {}) {
    const cursor = connected.db.collection('rows').find(filter, options);
    const plan = (await cursor.explain('executionStats')) as {
      executionStats: { nReturned: number; totalDocsExamined: number };
    };
    return plan.executionStats;
  }

  it('reads one document for an equality on an indexed field', async () => {
    expect(await examined({ slug: 'row-4321' })).toMatchObject({
      nReturned: 1,
      totalDocsExamined: 1,
    });
  });

  it('reads only the documents in range for a range on an indexed field', async () => {
    const stats = await examined({ score: { $gte: 10, $lt: 12 } });
    expect(stats.nReturned).toBe(10);
    expect(stats.totalDocsExamined).toBe(10);
  });

  it('reads a sorted page through the index, not the collection', async () => {
    const stats = await examined({ tag: 3 }, { sort: { score: -1 }, limit: 20 });
    expect(stats.nReturned).toBe(20);
    expect(stats.totalDocsExamined).toBeLessThan(500);
  });

  it('scans the collection when no index helps', async () => {
    expect((await examined({ tag: 3 })).totalDocsExamined).toBe(5_000);
  });
});

describe('compound indexes with a descending field', () => {
  const connected = useDatabase('compound', async (db) => {
    const debates = db.collection('debates');
    await debates.createIndex({ user: 1, at: -1, _id: -1 });
    await debates.createIndex({ kind: -1, score: 1 });
    await debates.insertMany(
      Array.from({ length: 40 }, (_, i) => ({
        _id: `d${String(i).padStart(2, '0')}`,
        user: `u${i % 4}`,
        at: new Date(Date.UTC(2026, 0, 1 + i)),
        kind: i % 2 === 0 ? 'even' : 'odd',
        score: i,
      })),
    );
  });

  it('finds by the leading field and pages in the index order', async () => {
    const debates = connected.db.collection('debates');
    const newest = await debates.find({ user: 'u1' }).sort({ at: -1, _id: -1 }).limit(3).toArray();
    expect(newest.map((doc) => doc['_id'])).toEqual(['d37', 'd33', 'd29']);
    expect(await debates.countDocuments({ user: 'u1' })).toBe(10);
    const oldest = await debates.find({ user: 'u2' }).sort({ at: 1 }).limit(2).toArray();
    expect(oldest.map((doc) => doc['_id'])).toEqual(['d02', 'd06']);
    const odd = await debates.find({ kind: 'odd', score: { $lt: 7 } }).toArray();
    expect(odd.map((doc) => doc['score'])).toEqual([1, 3, 5]);
  });
});

describe('sorts served by a compound index', () => {
  const connected = useDatabase('compound-sort', async (db) => {
    const rows = db.collection('ranked');
    await rows.createIndex({ score: -1, at: -1, _id: -1 });
    await rows.insertMany(
      Array.from({ length: 3_000 }, (_, i) => ({
        _id: `r${String(i).padStart(4, '0')}`,
        score: i % 10,
        at: new Date(Date.UTC(2026, 0, 1, 0, i % 50)),
        gone: i % 7 === 0 ? new Date(0) : null,
      })),
    );
  });

  async function page(sort: Record<string, 1 | -1>) {
    const cursor = connected.db.collection('ranked').find({ gone: null }).sort(sort).limit(5);
    const plan = (await cursor.clone().explain('executionStats')) as {
      executionStats: { totalDocsExamined: number };
    };
    return { ids: (await cursor.toArray()).map((doc) => doc['_id']), plan: plan.executionStats };
  }

  /** The same page worked out in memory, for the oracle. */
  function expected(direction: 1 | -1): string[] {
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      id: `r${String(i).padStart(4, '0')}`,
      score: i % 10,
      at: i % 50,
      gone: i % 7 === 0,
    })).filter((row) => !row.gone);
    rows.sort(
      (a, b) =>
        direction * (a.score - b.score) ||
        direction * (a.at - b.at) ||
        direction * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    return rows.slice(0, 5).map((row) => row.id);
  }

  it('walks the index for a sort on its leading fields, in order or reversed', async () => {
    const descending = await page({ score: -1, at: -1, _id: -1 });
    expect(descending.ids).toEqual(expected(-1));
    expect(descending.plan.totalDocsExamined).toBeLessThan(20);
    const ascending = await page({ score: 1, at: 1, _id: 1 });
    expect(ascending.ids).toEqual(expected(1));
    expect(ascending.plan.totalDocsExamined).toBeLessThan(20);
  });

  it('sorts in memory when the directions are mixed', async () => {
    const mixed = await page({ score: -1, at: 1 });
    expect(mixed.plan.totalDocsExamined).toBe(3_000);
  });
});

describe('a sorted page when another index narrows the filter', () => {
  const rows = Array.from({ length: 3_000 }, (_, i) => ({
    _id: `s${String(i).padStart(4, '0')}`,
    at: i,
    score: (i * 7919) % 3_000, // every score once, in no order of `at`
  }));
  const connected = useDatabase('sort-race', async (db) => {
    const collection = db.collection('rows');
    await collection.createIndex({ at: 1 });
    await collection.createIndex({ score: -1 });
    await collection.insertMany(rows.map((row) => ({ ...row })));
  });

  async function top(from: number) {
    const cursor = connected.db
      .collection('rows')
      .find({ at: { $gte: from } })
      .sort({ score: -1 })
      .limit(5);
    const plan = (await cursor.clone().explain('executionStats')) as {
      executionStats: { totalDocsExamined: number };
    };
    const expected = rows
      .filter((row) => row.at >= from)
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map((row) => row._id);
    return {
      ids: (await cursor.toArray()).map((doc) => doc['_id']),
      expected,
      examined: plan.executionStats.totalDocsExamined,
    };
  }

  it('walks the sort index when the filter is broad', async () => {
    const half = await top(1_500);
    expect(half.ids).toEqual(half.expected);
    expect(half.examined).toBeLessThan(50);
  });

  it('falls back to the narrowing index when the filter is selective', async () => {
    const few = await top(2_997);
    expect(few.ids).toEqual(few.expected);
    expect(few.ids).toHaveLength(3);
    expect(few.examined).toBeLessThanOrEqual(1_000 + 3);
  });
});
