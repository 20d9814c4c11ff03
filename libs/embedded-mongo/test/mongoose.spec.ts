import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose, { type Connection, Schema } from 'mongoose';
import { freshDatabase, startTarget, type Target } from './target.js';

interface User {
  email: string;
  displayName: string;
  isPro: boolean;
  credits: number;
  createdAt?: Date;
  updatedAt?: Date;
}

const userSchema = new Schema<User>(
  {
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    displayName: { type: String, required: true, maxlength: 60 },
    isPro: { type: Boolean, default: false },
    credits: { type: Number, min: 0, default: 3 },
  },
  { timestamps: true },
);

describe('mongoose against the server', () => {
  let target: Target;
  let connection: Connection;

  beforeAll(async () => {
    target = await startTarget();
    connection = await mongoose
      .createConnection(target.uri, {
        dbName: freshDatabase('mongoose'),
        serverSelectionTimeoutMS: 5_000,
      })
      .asPromise();
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
    await target?.stop();
  });

  it('creates, reads back and validates documents through a schema', async () => {
    const Users = connection.model('User', userSchema);
    await Users.init();
    const created = await Users.create({ email: '  Ada@Example.org ', displayName: 'Ada' });
    expect(created.isPro).toBe(false);
    const found = await Users.findById(created._id).lean();
    expect(found).toMatchObject({ email: 'ada@example.org', displayName: 'Ada', credits: 3 });
    expect(found?.createdAt).toBeInstanceOf(Date);
    await expect(
      Users.create({ email: 'b@example.org', displayName: 'x'.repeat(61) }),
    ).rejects.toThrow(/displayName/);
    expect(await Users.countDocuments()).toBe(1);
  });

  it("leaves out `_id` alone for select('-_id'), keeping every other field", async () => {
    const Notes = connection.model(
      'Note',
      new Schema({ title: String, body: String }, { versionKey: false }),
    );
    await Notes.create({ title: 'First', body: 'One' });
    // MongoDB: a projection of { _id: 0 } alone is an exclusion, not an inclusion of nothing.
    expect(await Notes.find().select('-_id').lean()).toEqual([{ title: 'First', body: 'One' }]);
    expect(await Notes.find({}, { _id: 1 }).lean()).toEqual([
      { _id: expect.anything() as unknown },
    ]);
  });

  it('matches case-insensitively with a collation (strength 2)', async () => {
    const Tags = connection.model('Tag', new Schema({ name: String }, { versionKey: false }));
    await Tags.create([{ name: 'Debate' }, { name: 'DEBATE' }, { name: 'debating' }]);
    const found = await Tags.find({ name: 'debate' })
      .collation({ locale: 'en', strength: 2 })
      .select('-_id')
      .lean();
    expect(found.map((tag) => tag.name).sort()).toEqual(['DEBATE', 'Debate']);
    expect(await Tags.find({ name: 'debate' }).lean()).toEqual([]);
  });

  it('reports a duplicate on a unique index as MongoDB does (E11000, keyValue)', async () => {
    const Users = connection.model('User', userSchema);
    await Users.init();
    await Users.create({ email: 'dup@example.org', displayName: 'One' });
    const error = (await Users.create({ email: 'DUP@example.org', displayName: 'Two' }).catch(
      (caught: unknown) => caught,
    )) as {
      code?: number;
      keyValue?: unknown;
      keyPattern?: unknown;
      message: string;
    };
    expect(error.code).toBe(11000);
    expect(error.message).toMatch(/E11000 duplicate key error/);
    expect(error.keyValue).toEqual({ email: 'dup@example.org' });
    expect(error.keyPattern).toEqual({ email: 1 });
    expect(await Users.countDocuments({ email: 'dup@example.org' })).toBe(1);
  });

  it('updates with a pipeline through findOneAndUpdate', async () => {
    const Users = connection.model('User', userSchema);
    const user = await Users.create({ email: 'pipe@example.org', displayName: 'Pipe', credits: 2 });
    const updated = await Users.findOneAndUpdate(
      { _id: user._id },
      [
        {
          $set: {
            credits: { $add: ['$credits', 5] },
            displayName: { $concat: ['$displayName', '!'] },
          },
        },
      ],
      { returnDocument: 'after', updatePipeline: true },
    ).lean();
    expect(updated).toMatchObject({ credits: 7, displayName: 'Pipe!' });
    expect(Object.keys(updated ?? {})[0]).toBe('_id');
  });

  it('groups with an aggregation', async () => {
    const Scores = connection.model('Score', new Schema({ team: String, points: Number }));
    await Scores.insertMany([
      { team: 'red', points: 3 },
      { team: 'blue', points: 4 },
      { team: 'red', points: 5 },
    ]);
    const totals = await Scores.aggregate<{ _id: string; total: number; games: number }>([
      { $group: { _id: '$team', total: { $sum: '$points' }, games: { $sum: 1 } } },
      { $sort: { total: -1 } },
    ]);
    expect(totals).toEqual([
      { _id: 'red', total: 8, games: 2 },
      { _id: 'blue', total: 4, games: 1 },
    ]);
  });

  it('decrements a counter only while it is positive, with 100 concurrent callers', async () => {
    const Counters = connection.model('Counter', new Schema({ n: Number }));
    const counter = await Counters.create({ n: 10 });
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        Counters.updateOne({ _id: counter._id, n: { $gt: 0 } }, { $inc: { n: -1 } }),
      ),
    );
    expect(results.filter((result) => result.modifiedCount === 1)).toHaveLength(10);
    expect((await Counters.findById(counter._id).lean())?.n).toBe(0);
  });

  it('lets one of many racing upserts on a unique key insert, and the rest update', async () => {
    const Stars = connection.model(
      'Star',
      new Schema({ key: { type: String, unique: true }, hits: { type: Number, default: 0 } }),
    );
    await Stars.init();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        Stars.updateOne({ key: 'debate-1' }, { $inc: { hits: 1 } }, { upsert: true }),
      ),
    );
    expect(results.filter((result) => result.upsertedCount === 1)).toHaveLength(1);
    expect(await Stars.countDocuments({ key: 'debate-1' })).toBe(1);
    expect((await Stars.findOne({ key: 'debate-1' }).lean())?.hits).toBe(50);
  });

  it('sets createdAt on upsert only ($setOnInsert), and updatedAt every time', async () => {
    const Users = connection.model('User', userSchema);
    const first = await Users.findOneAndUpdate(
      { email: 'upsert@example.org' },
      { $set: { displayName: 'First' } },
      { upsert: true, returnDocument: 'after' },
    ).lean();
    const second = await Users.findOneAndUpdate(
      { email: 'upsert@example.org' },
      { $set: { displayName: 'Second' } },
      { returnDocument: 'after' },
    ).lean();
    expect(second?.createdAt?.getTime()).toBe(first?.createdAt?.getTime());
    expect(second?.displayName).toBe('Second');
    expect(second?.updatedAt?.getTime()).toBeGreaterThanOrEqual(first?.updatedAt?.getTime() ?? 0);
  });
});
