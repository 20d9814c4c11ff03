import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Db, MongoClient, MongoServerError } from 'mongodb';
import { freshDatabase, startTarget, type Target } from './target.js';

/** The code and message a refused command answers with (MongoServerError). */
async function refusal(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MongoServerError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the command was not refused');
}

// What MongoDB's documentation says of the options and commands the product and issue 26 touch:
// each either behaves as documented, or (on the embedded store) is refused, naming the option,
// with MongoDB's error code: never a silently different answer. MONGO_URL runs it against a
// real MongoDB 7.0, where the documented behaviour is checked instead of the refusal.
describe('MongoDB behaviour, or a clear refusal', () => {
  let target: Target;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    target = await startTarget();
    client = await MongoClient.connect(target.uri, { serverSelectionTimeoutMS: 5_000 });
    db = client.db(freshDatabase('conformance'));
    await db.collection('words').insertMany([
      { _id: 1, word: 'ping', n: 1 },
      { _id: 2, word: 'PING', n: 2 },
      { _id: 3, word: 'pong', n: 3 },
    ]);
    await db.collection('words').createIndex({ word: 1 }, { name: 'by_word' });
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
    await target?.stop();
  });

  it('projects { _id: 0 } alone as an exclusion: every other field', async () => {
    // "_id: 0 ... excludes the _id field" (Project Fields to Return from Query).
    const rows = await db
      .collection('words')
      .find({ _id: 3 }, { projection: { _id: 0 } })
      .toArray();
    expect(rows).toEqual([{ word: 'pong', n: 3 }]);
  });

  it('matches case-insensitively with a collation of strength 2, or refuses the option', async () => {
    const find = db
      .collection('words')
      .find({ word: 'ping' }, { collation: { locale: 'en', strength: 2 } })
      .toArray();
    if (!target.embedded) {
      // Collation: strength 2 compares base characters and diacritics, not case.
      expect((await find).map((row) => row['_id'])).toEqual([1, 2]);
      return;
    }
    const refused = await refusal(find);
    expect(refused.code).toBe(238);
    expect(refused.message).toMatch(/does not support the 'collation' option/);
  });

  it('reads `let` variables in $expr on a find and an aggregate; an undefined one is 17276', async () => {
    // "let ... Specifies a document with a list of variables ... access with $$" (find, aggregate).
    const words = db.collection('words');
    const found = await words
      .find({ $expr: { $eq: ['$n', '$$wanted'] } }, { let: { wanted: 2 } })
      .toArray();
    expect(found.map((row) => row['_id'])).toEqual([2]);
    const aggregated = await words
      .aggregate(
        [
          { $match: { $expr: { $gt: ['$n', '$$least'] } } },
          { $project: { _id: 1, above: { $subtract: ['$n', '$$least'] } } },
          { $sort: { _id: 1 } },
        ],
        { let: { least: 1 } },
      )
      .toArray();
    expect(aggregated).toEqual([
      { _id: 2, above: 1 },
      { _id: 3, above: 2 },
    ]);
    const undefinedVariable = await refusal(
      words.find({ $expr: { $eq: ['$n', '$$nobody'] } }).toArray(),
    );
    expect(undefinedVariable.code).toBe(17276);
    expect(undefinedVariable.message).toMatch(/Use of undefined variable: nobody/);
  });

  it('refuses `let` where it does not read it (an update, a delete)', async () => {
    if (!target.embedded) return;
    const refused = await refusal(
      db
        .collection('words')
        .updateOne(
          { $expr: { $eq: ['$n', '$$wanted'] } },
          { $set: { seen: true } },
          { let: { wanted: 1 } },
        ),
    );
    expect(refused.code).toBe(238);
    expect(refused.message).toMatch(/does not support the 'let' option/);
  });

  it('takes a hint naming an index, and refuses one that names none (BadValue)', async () => {
    const words = db.collection('words');
    expect(await words.find({ word: 'pong' }, { hint: 'by_word' }).toArray()).toHaveLength(1);
    expect(await words.find({ word: 'pong' }, { hint: { word: 1 } }).toArray()).toHaveLength(1);
    expect(await words.find({}, { hint: { $natural: 1 } }).toArray()).toHaveLength(3);
    const refused = await refusal(words.find({}, { hint: 'no_such_index' }).toArray());
    expect(refused.code).toBe(2);
    expect(refused.message).toMatch(/hint provided does not correspond to an existing index/);
  });

  it('validates with a $jsonSchema validator, or refuses to create one', async () => {
    const create = db.createCollection('validated', {
      validator: { $jsonSchema: { required: ['name'] } },
    });
    if (!target.embedded) {
      await create;
      expect((await refusal(db.collection('validated').insertOne({ other: 1 }))).code).toBe(121);
      return;
    }
    expect((await refusal(create)).message).toMatch(/does not support the 'validator' option/);
    // Nothing was created on the way.
    expect(await db.listCollections({ name: 'validated' }).toArray()).toEqual([]);
  });

  it('makes a view, or refuses to (never an ordinary empty collection)', async () => {
    const create = db.createCollection('word_view', {
      viewOn: 'words',
      pipeline: [{ $match: { n: { $gt: 1 } } }],
    });
    if (!target.embedded) {
      await create;
      expect(await db.collection('word_view').countDocuments()).toBe(2);
      return;
    }
    expect((await refusal(create)).message).toMatch(/does not support the 'viewOn' option/);
    expect(await db.listCollections({ name: 'word_view' }).toArray()).toEqual([]);
  });

  it('refuses the commands it does not have by name (collMod, bulkWrite)', async () => {
    if (!target.embedded) return;
    const collMod = await refusal(db.command({ collMod: 'words', validator: {} }));
    expect(collMod).toEqual({ code: 59, message: "no such command: 'collMod'" });
    const bulkWrite = await refusal(
      client.db('admin').command({ bulkWrite: 1, ops: [], nsInfo: [] }),
    );
    expect(bulkWrite).toEqual({ code: 59, message: "no such command: 'bulkWrite'" });
  });

  it('says it is 7.0, and refuses what 7.0 does not know: an update with sort', async () => {
    const hello = await db.command({ hello: 1 });
    if (!target.embedded) return;
    expect(hello['maxWireVersion']).toBe(21);
    const refused = await refusal(
      db.command({
        update: 'words',
        updates: [{ q: {}, u: { $set: { n: 9 } }, sort: { n: -1 } }],
      }),
    );
    expect(refused).toEqual({
      code: 40415,
      message: "BSON field 'update.updates.sort' is an unknown field.",
    });
    // And nothing changed.
    expect(await db.collection('words').countDocuments({ n: 9 })).toBe(0);
  });

  it("refuses an _id with a '$'-prefixed field (InvalidIdField)", async () => {
    const refused = await refusal(db.collection('ids').insertOne({ _id: { $a: 1 } as never }));
    expect(refused.code).toBe(53);
    expect(await db.collection('ids').countDocuments()).toBe(0);
  });

  it('keeps the _id through a pipeline update that replaces the root', async () => {
    // "$replaceRoot ... the _id field is preserved" for updates with an aggregation pipeline.
    const things = db.collection<{ _id: number; inner?: { a: number }; a?: number }>('things');
    await things.insertOne({ _id: 7, inner: { a: 1 } });
    await things.updateOne({ _id: 7 }, [{ $replaceRoot: { newRoot: '$inner' } }]);
    expect(await things.findOne({ _id: 7 })).toEqual({ _id: 7, a: 1 });
  });
});
