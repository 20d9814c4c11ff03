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

  describe('collation', () => {
    // https://www.mongodb.com/docs/manual/reference/collation/: "strength 1: primary level of
    // comparison ... base characters only, ignoring other differences such as diacritics and
    // case; 2: secondary ... base characters and diacritics; 3 (default): ... and case".
    const caseless = { locale: 'en', strength: 2 } as const;
    const baseOnly = { locale: 'en', strength: 1 } as const;
    const names = () => db.collection<{ _id: number; name: string; tag?: string }>('names');

    beforeAll(async () => {
      await names().insertMany([
        { _id: 1, name: 'cafe' },
        { _id: 2, name: 'Café' },
        { _id: 3, name: 'CAFE' },
        { _id: 4, name: 'Banana' },
        { _id: 5, name: 'apple' },
        { _id: 6, name: 'cherry' },
      ]);
      await names().createIndex({ name: 1 });
    });

    const ids = (rows: { _id: number }[]) => rows.map((row) => row._id).sort((a, b) => a - b);

    it('matches case-insensitively at strength 2 and accent-insensitively at strength 1', async () => {
      expect(ids(await names().find({ name: 'cafe' }, { collation: caseless }).toArray())).toEqual([
        1, 3,
      ]);
      expect(ids(await names().find({ name: 'cafe' }, { collation: baseOnly }).toArray())).toEqual([
        1, 2, 3,
      ]);
      // Without a collation: bytes, the index's order.
      expect(ids(await names().find({ name: 'cafe' }).toArray())).toEqual([1]);
      expect(
        ids(
          await names()
            .find({ name: { $in: ['CHERRY', 'APPLE'] } }, { collation: caseless })
            .toArray(),
        ),
      ).toEqual([5, 6]);
      expect(
        ids(
          await names()
            .find({ name: { $gte: 'C', $lt: 'd' } }, { collation: caseless })
            .toArray(),
        ),
      ).toEqual([1, 2, 3, 6]);
    });

    it('sorts by the locale: case does not put capitals first', async () => {
      const sorted = await names()
        .find({ _id: { $in: [4, 5, 6] } }, { collation: caseless })
        .sort({ name: 1 })
        .toArray();
      expect(sorted.map((row) => row.name)).toEqual(['apple', 'Banana', 'cherry']);
      // Without one, by bytes: capitals first.
      const binary = await names()
        .find({ _id: { $in: [4, 5, 6] } })
        .sort({ name: 1 })
        .toArray();
      expect(binary.map((row) => row.name)).toEqual(['Banana', 'apple', 'cherry']);
      // An aggregate's $sort too, on two keys: strings equal by the collation sort by the next.
      const tied = db.collection('tied');
      await tied.insertMany([
        { n: 'a', s: 2 },
        { n: 'A', s: 1 },
        { n: 'a', s: 0 },
      ]);
      const aggregated = await tied
        .aggregate([{ $sort: { n: 1, s: 1 } }, { $project: { _id: 0, s: 1 } }], {
          collation: caseless,
        })
        .toArray();
      expect(aggregated).toEqual([{ s: 0 }, { s: 1 }, { s: 2 }]);
      // numericOrdering: "compare numeric strings as numbers" ("10" after "9").
      const numbers = db.collection('numbers');
      await numbers.insertMany([{ v: '10' }, { v: '9' }, { v: '100' }]);
      const numeric = await numbers
        .find({}, { collation: { locale: 'en', numericOrdering: true }, projection: { _id: 0 } })
        .sort({ v: 1 })
        .toArray();
      expect(numeric).toEqual([{ v: '9' }, { v: '10' }, { v: '100' }]);
    });

    it('counts, aggregates, finds distinct values, updates and deletes by the collation', async () => {
      expect(await names().countDocuments({ name: 'CAFE' }, { collation: caseless })).toBe(2);
      const matched = await names()
        .aggregate(
          [{ $match: { name: 'CAFÉ' } }, { $project: { _id: 1 } }, { $sort: { _id: 1 } }],
          { collation: caseless },
        )
        .toArray();
      expect(matched).toEqual([{ _id: 2 }]);
      const distinct = await names().distinct(
        'name',
        { _id: { $in: [1, 3] } },
        { collation: caseless },
      );
      expect(distinct).toHaveLength(1);
      expect(['cafe', 'CAFE']).toContain(distinct[0]);
      const updated = await names().updateMany(
        { name: 'cafe' },
        { $set: { tag: 'coffee' } },
        { collation: baseOnly },
      );
      expect(updated.modifiedCount).toBe(3);
      const found = await names().findOneAndUpdate(
        { name: 'APPLE' },
        { $set: { tag: 'fruit' } },
        { collation: caseless, returnDocument: 'after' },
      );
      expect(found?.['tag']).toBe('fruit');
      expect(found?.['name']).toBe('apple');
      const deleted = await names().deleteMany({ tag: 'COFFEE' }, { collation: caseless });
      expect(deleted.deletedCount).toBe(3);
      expect(ids(await names().find({}).toArray())).toEqual([4, 5, 6]);
    });

    it('refuses an invalid locale (BadValue) and a collation without one', async () => {
      const invalid = await refusal(
        names()
          .find({}, { collation: { locale: 'xx' } })
          .toArray(),
      );
      expect(invalid.code).toBe(2);
      const missing = await refusal(
        db.command({ find: 'names', filter: {}, collation: { strength: 2 } }),
      );
      expect(missing.code).toBe(40414);
    });

    it('groups by the collation, or refuses a $group it would not', async () => {
      const grouping = names()
        .aggregate([{ $group: { _id: '$name', n: { $sum: 1 } } }], { collation: baseOnly })
        .toArray();
      if (!target.embedded) {
        expect((await grouping).length).toBeLessThan(await names().countDocuments());
        return;
      }
      const refused = await refusal(grouping);
      expect(refused.code).toBe(238);
      expect(refused.message).toMatch(/does not support '\$group' with a collation/);
      // A filter's expression that would compare by bytes is refused too.
      const inFilter = await refusal(
        names()
          .find({ $expr: { $eq: [{ $max: ['$name', 'B'] }, 'b'] } }, { collation: baseOnly })
          .toArray(),
      );
      expect(inFilter.message).toMatch(/does not support '\$max' with a collation/);
      const strength4 = await refusal(
        names()
          .find({}, { collation: { locale: 'en', strength: 4 } })
          .toArray(),
      );
      expect(strength4.code).toBe(238);
      expect(strength4.message).toMatch(/does not support strength 4 in a collation/);
    });
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

  it('reads `let` on an update, a findOneAndUpdate and a delete', async () => {
    // "let ... variables ... accessible in the query and, for pipeline updates, the update"
    // (update, findAndModify, delete commands).
    const counters = db.collection<{ _id: number; n: number; seen?: string }>('counters');
    await counters.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
      { _id: 3, n: 3 },
    ]);
    const updated = await counters.updateOne(
      { $expr: { $eq: ['$n', '$$wanted'] } },
      [{ $set: { seen: '$$mark' } }],
      { let: { wanted: 2, mark: 'yes' } },
    );
    expect(updated.modifiedCount).toBe(1);
    expect(await counters.findOne({ _id: 2 })).toEqual({ _id: 2, n: 2, seen: 'yes' });
    const found = await counters.findOneAndUpdate(
      { $expr: { $gt: ['$n', '$$least'] } },
      { $set: { seen: 'top' } },
      { let: { least: 2 }, returnDocument: 'after' },
    );
    expect(found).toEqual({ _id: 3, n: 3, seen: 'top' });
    const deleted = await counters.deleteMany(
      { $expr: { $lt: ['$n', '$$below'] } },
      { let: { below: 2 } },
    );
    expect(deleted.deletedCount).toBe(1);
    expect((await counters.find({}).toArray()).map((row) => row._id)).toEqual([2, 3]);
  });

  it('counts a document as modified only when an update changes what is stored', async () => {
    // "If the update operation results in no change to the document, e.g. $set expression
    // updates the value to the current value, nModified can be less than n" (update command).
    const at = new Date('2026-01-01T00:00:00Z');
    const things = db.collection<Record<string, unknown> & { _id: number }>('unchanged');
    await things.insertOne({
      _id: 1,
      n: 1,
      at,
      tags: ['a', { b: 2 }],
      nested: { x: 1, y: 2 },
      padded: [],
    });
    const set = (values: Record<string, unknown>) => things.updateOne({ _id: 1 }, { $set: values });

    const same = await set({
      n: 1,
      at: new Date(at),
      tags: ['a', { b: 2 }],
      nested: { x: 1, y: 2 },
    });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    // A later date, another number in an array's document: changed.
    expect((await set({ at: new Date(at.getTime() + 1) })).modifiedCount).toBe(1);
    expect((await set({ 'tags.1.b': 2.5 })).modifiedCount).toBe(1);
    // -0 is a double, 0 an int32: another value to MongoDB, though JavaScript finds them equal.
    expect((await set({ n: -0 })).modifiedCount).toBe(1);
    expect((await set({ n: 1 })).modifiedCount).toBe(1);
    // Setting past an array's end pads it with nulls; setting one of them to null changes nothing.
    expect((await set({ 'padded.3': 9 })).modifiedCount).toBe(1);
    expect((await things.findOne({ _id: 1 }))?.['padded']).toEqual([null, null, null, 9]);
    expect((await set({ 'padded.1': null })).modifiedCount).toBe(0);
    expect(await things.findOne({ _id: 1 })).toEqual({
      _id: 1,
      n: 1,
      at: new Date(at.getTime() + 1),
      tags: ['a', { b: 2.5 }],
      nested: { x: 1, y: 2 },
      padded: [null, null, null, 9],
    });
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

  describe('schema validation', () => {
    // https://www.mongodb.com/docs/manual/core/schema-validation/: a collection's validator
    // refuses inserts and updates that fail it ("Document failed validation", code 121);
    // validationLevel 'moderate' applies to updates of valid documents only, validationAction
    // 'warn' writes and logs; collMod changes them; bypassDocumentValidation skips them.
    const schema = {
      $jsonSchema: {
        bsonType: 'object',
        required: ['name', 'year'],
        properties: {
          name: { bsonType: 'string', description: 'must be a string' },
          year: { bsonType: 'int', minimum: 2000, maximum: 2100 },
          tags: { bsonType: 'array', items: { bsonType: 'string' } },
        },
      },
    };
    const students = () => db.collection('students');

    beforeAll(async () => {
      await db.createCollection('students', { validator: schema });
    });

    it('refuses an insert or an update that fails the validator, changing nothing', async () => {
      await students().insertOne({ _id: 1, name: 'Ada', year: 2024, tags: ['math'] } as never);
      const missing = await refusal(students().insertOne({ _id: 2, name: 'Bob' } as never));
      expect(missing.code).toBe(121);
      expect(missing.message).toMatch(/Document failed validation/);
      const wrongType = await refusal(
        students().insertOne({ _id: 3, name: 'Cy', year: 'soon' } as never),
      );
      expect(wrongType.code).toBe(121);
      const update = await refusal(students().updateOne({ _id: 1 }, { $set: { year: 1999 } }));
      expect(update.code).toBe(121);
      const upsert = await refusal(
        students().updateOne({ _id: 4 }, { $set: { name: 'Di' } }, { upsert: true }),
      );
      expect(upsert.code).toBe(121);
      expect(await students().find({}).toArray()).toEqual([
        { _id: 1, name: 'Ada', year: 2024, tags: ['math'] },
      ]);
      // A query may use $jsonSchema too.
      expect(await students().countDocuments(schema)).toBe(1);
      // bypassDocumentValidation writes it anyway.
      await students().insertOne({ _id: 5, name: 'Ed' } as never, {
        bypassDocumentValidation: true,
      });
      expect(await students().countDocuments()).toBe(2);
    });

    it("changes validation with collMod: 'moderate' spares invalid documents, 'warn' writes", async () => {
      await db.command({ collMod: 'students', validationLevel: 'moderate' });
      // _id 5 was already invalid: under 'moderate' its update is not checked.
      await students().updateOne({ _id: 5 }, { $set: { note: 'still no year' } });
      expect(await students().findOne({ _id: 5 } as never)).toMatchObject({
        note: 'still no year',
      });
      // _id 1 is valid: its update still is.
      expect((await refusal(students().updateOne({ _id: 1 }, { $unset: { year: '' } }))).code).toBe(
        121,
      );
      await db.command({ collMod: 'students', validationAction: 'warn' });
      await students().insertOne({ _id: 6, name: 'Fay' } as never);
      expect(await students().countDocuments({ _id: 6 } as never)).toBe(1);
      const [info] = await db.listCollections({ name: 'students' }).toArray();
      expect(info?.['options']).toMatchObject({
        validator: schema,
        validationLevel: 'moderate',
        validationAction: 'warn',
      });
      expect((await refusal(db.command({ collMod: 'nobody', validator: {} }))).code).toBe(26);
      expect(
        (await refusal(db.command({ collMod: 'students', validationLevel: 'sometimes' }))).code,
      ).toBe(2);
    });

    it('reads property names as names, and JSON types as MongoDB does', async () => {
      // Properties may be called as keywords are ('id', 'format', 'default'); a JSON `type` of
      // 'object' is an embedded document (not a date), 'number' any numeric type.
      const schema2 = {
        $jsonSchema: {
          required: ['id', 'format'],
          properties: {
            id: { type: 'string' },
            format: { type: 'object' },
            default: { type: 'number' },
          },
        },
      };
      await db.createCollection('keyword_names', { validator: schema2 });
      const named = db.collection('keyword_names');
      await named.insertOne({ id: 'a', format: { width: 3 }, default: 2.5 });
      const aDate = await refusal(named.insertOne({ id: 'b', format: new Date() }));
      expect(aDate.code).toBe(121);
      expect(await named.countDocuments()).toBe(1);
    });

    it('refuses a $jsonSchema keyword MongoDB does not support, creating nothing', async () => {
      const refused = await refusal(
        db.createCollection('bad_schema', {
          validator: { $jsonSchema: { properties: { a: { type: 'integer' } } } },
        }),
      );
      expect(refused.code).toBe(9);
      expect(await db.listCollections({ name: 'bad_schema' }).toArray()).toEqual([]);
    });
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

  it("refuses 8.0's bulkWrite command and options it does not honour, by name", async () => {
    if (!target.embedded) return;
    const ttl = await refusal(
      db.collection('words').createIndex({ n: 1 }, { expireAfterSeconds: 60 }),
    );
    expect(ttl.code).toBe(238);
    expect(ttl.message).toMatch(/does not support the 'expireAfterSeconds' option/);
    const capped = await refusal(db.createCollection('ring', { capped: true, size: 4096 }));
    expect(capped.message).toMatch(/does not support the 'capped' option/);
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
