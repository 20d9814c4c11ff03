/** The administration commands: collections, their validation and indexes, listed and changed. */

import type { Document } from 'bson';
import { collectionName } from './arguments.js';
import type { Handler } from './context.js';
import { write } from './write-batch.js';
import { CommandError } from '../errors.js';
import { parseIndexSpec, sameIndexSpec } from '../store/index-tree.js';
import type { JournalRecord } from '../store/journal.js';
import { queryOf } from '../store/matching.js';
import { parseValidationOptions } from '../store/validation.js';

export const create: Handler = async (body, db, context) => {
  const name = collectionName(body, 'create');
  const options = parseValidationOptions(body, 'create');
  if (context.engine.collection(db, name)) {
    throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
  }
  const record: JournalRecord = {
    op: 'createCollection',
    db,
    coll: name,
    ...(Object.keys(options).length > 0 ? { options: { ...options } } : {}),
  };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { ok: 1 };
};

/** `collMod`: a collection's validator, validation level and action (nothing else here). */
export const collMod: Handler = async (body, db, context) => {
  const name = collectionName(body, 'collMod');
  const options = parseValidationOptions(body, 'collMod');
  if (!context.engine.collection(db, name)) {
    throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  }
  const record: JournalRecord = { op: 'collMod', db, coll: name, options: { ...options } };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { ok: 1 };
};

export const drop: Handler = async (body, db, context) => {
  const name = collectionName(body, 'drop');
  const collection = context.engine.collection(db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', 'ns not found');
  const nIndexesWas = collection.indexSpecs().length;
  const record: JournalRecord = { op: 'dropCollection', db, coll: name };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { ns: `${db}.${name}`, nIndexesWas, ok: 1 };
};

export const dropDatabase: Handler = async (_body, db, context) => {
  const record: JournalRecord = { op: 'dropDatabase', db };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { dropped: db, ok: 1 };
};

export const createIndexes: Handler = (body, db, context) => {
  const name = collectionName(body, 'createIndexes');
  const createdCollectionAutomatically = !context.engine.collection(db, name);
  return write(context, db, name, body, (batch) => {
    const collection = batch.collection;
    const before = collection.indexSpecs().length;
    // Every spec is checked before any is built: a conflict fails the command and builds none.
    const specs = ((body['indexes'] ?? []) as Document[]).map(parseIndexSpec);
    const toBuild = specs.filter((spec) => {
      const existing = collection.indexSpecs().find((candidate) => candidate.name === spec.name);
      if (existing && !sameIndexSpec(existing, spec) && spec.name !== '_id_') {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`,
        );
      }
      return !existing;
    });
    for (const spec of toBuild) batch.createIndex(spec);
    return {
      createdCollectionAutomatically,
      numIndexesBefore: before,
      numIndexesAfter: collection.indexSpecs().length,
      ok: 1,
    };
  });
};

export const listIndexes: Handler = (body, db, context) => {
  const name = collectionName(body, 'listIndexes');
  const collection = context.engine.collection(db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const indexes = collection.indexSpecs().map((spec) => ({ v: 2, ...spec }));
  return { cursor: context.openCursor(`${db}.${name}`, indexes, undefined), ok: 1 };
};

export const dropIndexes: Handler = async (body, db, context) => {
  const name = collectionName(body, 'dropIndexes');
  const collection = context.engine.collection(db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns not found ${db}.${name}`);
  const nIndexesWas = collection.indexSpecs().length;
  const requested = body['index'];
  const names =
    requested === '*'
      ? collection
          .indexSpecs()
          .map((spec) => spec.name)
          .filter((index) => index !== '_id_')
      : Array.isArray(requested)
        ? (requested as string[])
        : typeof requested === 'string'
          ? [requested]
          : collection
              .indexSpecs()
              .filter((spec) => JSON.stringify(spec.key) === JSON.stringify(requested))
              .map((spec) => spec.name);
  const records: JournalRecord[] = [];
  for (const index of names) {
    if (index === '_id_') throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!collection.getIndex(index))
      throw new CommandError('IndexNotFound', `index not found with name [${index}]`);
  }
  for (const index of names) {
    const record: JournalRecord = { op: 'dropIndex', db, coll: name, name: index };
    context.engine.apply(record);
    records.push(record);
  }
  await context.engine.commit(records);
  return { nIndexesWas, ok: 1 };
};

export const listCollections: Handler = (body, db, context) => {
  const filter = (body['filter'] ?? {}) as Document;
  const query = queryOf(filter);
  const entries = context.engine.collections(db).map((collection) => ({
    name: collection.name,
    type: 'collection',
    options: { ...collection.validationOptions },
    info: { readOnly: false },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  }));
  const matching = entries.filter((entry) => query.test(entry));
  const shaped =
    body['nameOnly'] === true
      ? matching.map((entry) => ({ name: entry.name, type: entry.type }))
      : matching;
  return { cursor: context.openCursor(`${db}.$cmd.listCollections`, shaped, undefined), ok: 1 };
};

export const listDatabases: Handler = (body, _db, context) => {
  const databases = context.engine.databaseNames().map((name) => {
    let sizeOnDisk = 0;
    for (const collection of context.engine.collections(name)) {
      sizeOnDisk += collection.dataBytes;
    }
    return { name, sizeOnDisk, empty: sizeOnDisk === 0 };
  });
  const totalSize = databases.reduce((sum, database) => sum + database.sizeOnDisk, 0);
  if (body['nameOnly'] === true)
    return { databases: databases.map(({ name }) => ({ name })), ok: 1 };
  return { databases, totalSize, ok: 1 };
};
