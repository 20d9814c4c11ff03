import { BSON, type Document, Long, ObjectId } from 'bson';
import { refuseCollationBlind, refuseUnsupported } from './unsupported.js';
import { CommandError, DuplicateKeyError, evaluationError } from '../errors.js';
import { parseCollation } from '../store/collation.js';
import { applyUpdate, Collection, newScanStats } from '../store/collection.js';
import type { SortSpec } from '../store/sorting.js';
import type { Engine } from '../store/engine.js';
import { type IndexSpec, parseIndexSpec, sameIndexSpec } from '../store/index-tree.js';
import type { JournalRecord } from '../store/journal.js';
import { aggregatorOf, type MatchOptions, queryOf } from '../store/matching.js';
import { project } from '../store/projection.js';
import { parseValidationOptions } from '../store/validation.js';
import { bsonSize, cloneDocument, isPlainObject, sameValue, valueKey } from '../store/values.js';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../wire/protocol.js';

/** Version figures this server reports: those of the MongoDB release whose commands it follows. */
const SERVER_VERSION = '7.0.0';
const MAX_WIRE_VERSION = 21;
const BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;

interface Cursor {
  readonly namespace: string;
  documents: Document[];
}

/** What commands share: the store, the open cursors, and this connection's id. */
export class CommandContext {
  private nextCursorId = 1;
  readonly cursors = new Map<number, Cursor>();

  constructor(readonly engine: Engine) {}

  openCursor(namespace: string, documents: Document[], batchSize: number | undefined): Document {
    const [firstBatch, rest] = takeBatch(documents, batchSize);
    let id = 0;
    if (rest.length > 0) {
      id = this.nextCursorId++;
      this.cursors.set(id, { namespace, documents: rest });
    }
    return { id: Long.fromNumber(id), ns: namespace, firstBatch };
  }
}

function takeBatch(documents: Document[], batchSize: number | undefined): [Document[], Document[]] {
  const limit = batchSize && batchSize > 0 ? batchSize : documents.length;
  let bytes = 0;
  let count = 0;
  while (count < documents.length && count < limit) {
    bytes += BSON.calculateObjectSize(documents[count] as Document);
    if (bytes > BATCH_BYTES && count > 0) break;
    count += 1;
  }
  return [documents.slice(0, count), documents.slice(count)];
}

type Handler = (
  body: Document,
  db: string,
  context: CommandContext,
) => Promise<Document> | Document;

function collectionName(body: Document, command: string): string {
  const name = body[command];
  if (typeof name !== 'string' || name.length === 0) {
    throw new CommandError(
      'InvalidNamespace',
      `collection name must be a non-empty string, not ${JSON.stringify(name)}`,
    );
  }
  if (name.includes('$') || name.startsWith('system.')) {
    throw new CommandError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
  return name;
}

/** A command's `let`: the variables its `$$names` read. */
function letOf(body: Document): Document | undefined {
  const variables: unknown = body['let'];
  if (variables === undefined || variables === null) return undefined;
  if (typeof variables !== 'object' || Array.isArray(variables)) {
    throw new CommandError('TypeMismatch', "BSON field 'let' is the wrong type, expected object");
  }
  return variables as Document;
}

/**
 * What a command's reads are evaluated with: its `let`, and the collation of the command (or of
 * the statement, for an update's or a delete's), checked against what ignores a collation.
 */
function matchOf(
  command: string,
  body: Document,
  collation: unknown,
  ...collationBlind: unknown[]
): MatchOptions {
  const variables = letOf(body);
  const parsed = parseCollation(collation, command);
  if (parsed) for (const spec of collationBlind) refuseCollationBlind(spec, command);
  return {
    ...(variables ? { variables } : {}),
    ...(parsed ? { collation: parsed } : {}),
  };
}

function toNumber(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number') return value;
  if (value instanceof Long) return value.toNumber();
  return Number(value);
}

/**
 * The document with an `_id`, a new ObjectId when it has none. (An upsert's document carries the
 * key with no value, so a spread default would be overwritten by it.)
 */
function withId(document: Document): Document {
  const { _id: id, ...rest } = document;
  return { _id: id === undefined ? new ObjectId() : id, ...rest };
}

/** MongoDB keeps no `$`-prefixed field inside an `_id` (it could not be matched). */
function checkId(document: Document): void {
  const id: unknown = document['_id'];
  if (!isPlainObject(id)) return;
  const field = Object.keys(id).find((key) => key.startsWith('$'));
  if (field) {
    throw new CommandError(
      'InvalidIdField',
      `_id fields may not contain '$'-prefixed fields: ${field} is not valid for storage.`,
    );
  }
}

function checkSize(document: Document): void {
  const size = bsonSize(document);
  if (size > MAX_BSON_OBJECT_SIZE) {
    throw new CommandError(
      'BSONObjectTooLarge',
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`,
    );
  }
}

function buildInfo(): Document {
  return {
    version: SERVER_VERSION,
    versionArray: [7, 0, 0, 0],
    gitVersion: 'embedded',
    bits: 64,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['embedded-journal'],
    ok: 1,
  };
}

function hello(): Document {
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
}

/**
 * The document writes of one command on one collection: each is applied in memory at once and
 * recorded for the journal, with the collection's creation when the write creates it.
 */
class WriteBatch {
  readonly records: JournalRecord[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly db: string,
    private readonly name: string,
    /** `bypassDocumentValidation`: the collection's validator is not applied. */
    private readonly bypassValidation = false,
  ) {}

  /** The collection, created (and its creation recorded) when it does not exist yet. */
  get collection(): Collection {
    const existing = this.engine.collection(this.db, this.name);
    if (existing) return existing;
    this.records.push({ op: 'createCollection', db: this.db, coll: this.name });
    return this.engine.ensureCollection(this.db, this.name);
  }

  /** Stores a new document (given an `_id` when it has none) and returns it as stored. */
  insert(document: Document): Document {
    const stored = withId(document);
    checkId(stored);
    checkSize(stored);
    if (!this.bypassValidation) this.collection.validate(stored);
    this.collection.insert(stored);
    this.records.push({ op: 'put', db: this.db, coll: this.name, doc: stored });
    return stored;
  }

  replace(previous: Document, next: Document): void {
    checkSize(next);
    if (!this.bypassValidation) this.collection.validate(next, previous);
    this.collection.replace(previous, next);
    this.records.push({ op: 'put', db: this.db, coll: this.name, doc: next });
  }

  remove(document: Document): void {
    this.collection.remove(document);
    this.records.push({ op: 'delete', db: this.db, coll: this.name, id: document['_id'] });
  }

  createIndex(spec: IndexSpec): void {
    this.collection.createIndex(spec);
    this.records.push({ op: 'createIndex', db: this.db, coll: this.name, spec: { ...spec } });
  }
}

/**
 * Runs a command's writes and answers once they are durable. What was applied is journalled
 * even when the command then fails, so memory and journal never disagree.
 */
async function write<T>(
  context: CommandContext,
  db: string,
  name: string,
  body: Document,
  work: (batch: WriteBatch) => T,
): Promise<T> {
  const batch = new WriteBatch(context.engine, db, name, body['bypassDocumentValidation'] === true);
  try {
    return work(batch);
  } finally {
    await context.engine.commit(batch.records);
  }
}

const insert: Handler = (body, db, context) => {
  const name = collectionName(body, 'insert');
  const documents = (body['documents'] ?? []) as Document[];
  const ordered = body['ordered'] !== false;
  return write(context, db, name, body, (batch) => {
    const writeErrors: Document[] = [];
    let inserted = 0;
    for (const [index, document] of documents.entries()) {
      try {
        batch.insert(document);
        inserted += 1;
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index));
        if (ordered) break;
      }
    }
    return { n: inserted, ...(writeErrors.length > 0 ? { writeErrors } : {}), ok: 1 };
  });
};

function writeErrorOf(error: unknown, index: number): Document {
  if (error instanceof DuplicateKeyError) return error.toWriteError(index);
  if (error instanceof CommandError) {
    return { index, code: error.code, errmsg: error.message, ...error.extra };
  }
  return { index, code: 1, errmsg: (error as Error).message };
}

const update: Handler = (body, db, context) => {
  const name = collectionName(body, 'update');
  const statements = (body['updates'] ?? []) as Document[];
  const ordered = body['ordered'] !== false;
  return write(context, db, name, body, (batch) => {
    const writeErrors: Document[] = [];
    const upserted: Document[] = [];
    let matched = 0;
    let modified = 0;
    for (const [index, statement] of statements.entries()) {
      try {
        const filter = (statement['q'] ?? {}) as Document;
        const change = statement['u'];
        const match = matchOf('update', body, statement['collation'], filter, change);
        const arrayFilters = statement['arrayFilters'] as Document[] | undefined;
        const options = arrayFilters ? { arrayFilters, filter, match } : { filter, match };
        const collection = batch.collection;
        const targets =
          statement['multi'] === true
            ? collection.find(filter, undefined, match)
            : collection.findSorted(filter, undefined, 0, 1, undefined, match);
        if (targets.length === 0 && statement['upsert'] === true) {
          const seed = Collection.upsertSeed(filter);
          const stored = batch.insert(applyUpdate(seed, change, { ...options, insert: true }));
          upserted.push({ index, _id: stored['_id'] });
          continue;
        }
        for (const target of targets) {
          const next = applyUpdate(target, change, options);
          matched += 1;
          if (sameValue(next, target)) continue;
          batch.replace(target, next);
          modified += 1;
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index));
        if (ordered) break;
      }
    }
    return {
      n: matched + upserted.length,
      nModified: modified,
      ...(upserted.length > 0 ? { upserted } : {}),
      ...(writeErrors.length > 0 ? { writeErrors } : {}),
      ok: 1,
    };
  });
};

const remove: Handler = (body, db, context) => {
  const name = collectionName(body, 'delete');
  const statements = (body['deletes'] ?? []) as Document[];
  const collection = context.engine.collection(db, name);
  return write(context, db, name, body, (batch) => {
    let removed = 0;
    const matches = statements.map((statement) =>
      matchOf('delete', body, statement['collation'], statement['q']),
    );
    for (const [position, statement] of (collection ? statements : []).entries()) {
      const filter = (statement['q'] ?? {}) as Document;
      const limit = toNumber(statement['limit'], 0);
      const match = matches[position];
      const targets =
        limit === 1
          ? batch.collection.findSorted(filter, undefined, 0, 1, undefined, match)
          : batch.collection.find(filter, undefined, match);
      for (const target of targets) {
        batch.remove(target);
        removed += 1;
      }
    }
    return { n: removed, ok: 1 };
  });
};

const find: Handler = (body, db, context) => {
  const name = collectionName(body, 'find');
  const collection = context.engine.collection(db, name);
  const skip = toNumber(body['skip'], 0);
  const limit = Math.abs(toNumber(body['limit'], 0));
  const documents = collection
    ? collection.findSorted(
        (body['filter'] ?? {}) as Document,
        body['sort'] as SortSpec | undefined,
        skip,
        limit,
        undefined,
        matchOf('find', body, body['collation'], body['filter'], body['projection']),
      )
    : [];
  const batchSize = body['singleBatch'] === true ? undefined : toNumber(body['batchSize'], 101);
  const cursor = context.openCursor(
    `${db}.${name}`,
    project(documents, body['projection'] as Document | undefined),
    batchSize,
  );
  return { cursor, ok: 1 };
};

const getMore: Handler = (body, db, context) => {
  const id = toNumber(body['getMore'], 0);
  const cursor = context.cursors.get(id);
  if (!cursor) throw new CommandError('CursorNotFound', `cursor id ${id} not found`);
  const [nextBatch, rest] = takeBatch(
    cursor.documents,
    toNumber(body['batchSize'], 0) || undefined,
  );
  cursor.documents = rest;
  if (rest.length === 0) context.cursors.delete(id);
  return {
    cursor: { id: Long.fromNumber(rest.length > 0 ? id : 0), ns: cursor.namespace, nextBatch },
    ok: 1,
  };
};

const killCursors: Handler = (body, _db, context) => {
  const ids = ((body['cursors'] ?? []) as unknown[]).map((id) => toNumber(id, 0));
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const id of ids) (context.cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id));
  return {
    cursorsKilled: killed,
    cursorsNotFound: notFound,
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

const findAndModify: Handler = (body, db, context) => {
  const name = collectionName(body, 'findAndModify');
  const filter = (body['query'] ?? {}) as Document;
  const remove = body['remove'] === true;
  if (!remove && body['update'] === undefined)
    throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  const fields = body['fields'] as Document | undefined;
  const shape = (document: Document | undefined) =>
    document ? (project([document], fields)[0] ?? null) : null;
  const arrayFilters = body['arrayFilters'] as Document[] | undefined;
  const match = matchOf(
    'findAndModify',
    body,
    body['collation'],
    filter,
    body['update'],
    body['fields'],
  );
  const options = arrayFilters ? { arrayFilters, filter, match } : { filter, match };
  return write(context, db, name, body, (batch) => {
    const [target] = batch.collection.findSorted(
      filter,
      body['sort'] as SortSpec | undefined,
      0,
      1,
      undefined,
      match,
    );
    if (remove) {
      if (target) batch.remove(target);
      return { lastErrorObject: { n: target ? 1 : 0 }, value: shape(target), ok: 1 };
    }
    if (!target) {
      if (body['upsert'] !== true) {
        return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
      }
      const seed = Collection.upsertSeed(filter);
      const stored = batch.insert(applyUpdate(seed, body['update'], { ...options, insert: true }));
      return {
        lastErrorObject: { n: 1, updatedExisting: false, upserted: stored['_id'] },
        value: body['new'] === true ? shape(stored) : null,
        ok: 1,
      };
    }
    const next = applyUpdate(target, body['update'], options);
    batch.replace(target, next);
    return {
      lastErrorObject: { n: 1, updatedExisting: true },
      value: shape(body['new'] === true ? next : target),
      ok: 1,
    };
  });
};

const SUPPORTED_STAGES = new Set([
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$group',
  '$count',
  '$unwind',
  '$lookup',
  '$facet',
  '$replaceRoot',
  '$replaceWith',
  '$sortByCount',
  '$bucket',
  '$sample',
]);

const aggregate: Handler = (body, db, context) => {
  const target = body['aggregate'];
  const pipeline = (body['pipeline'] ?? []) as Document[];
  const checkStages = (stages: Document[]) => {
    for (const stage of stages) {
      const [operator] = Object.keys(stage);
      if (!operator || !SUPPORTED_STAGES.has(operator)) {
        throw new CommandError(
          'UnrecognizedPipelineStage',
          `Unrecognized pipeline stage name: '${operator ?? ''}' (not supported by the embedded server)`,
        );
      }
      if (operator === '$facet')
        for (const sub of Object.values(stage['$facet'] as Document))
          checkStages(sub as Document[]);
    }
  };
  checkStages(pipeline);
  const match = matchOf('aggregate', body, body['collation'], pipeline);
  const collection = typeof target === 'string' ? context.engine.collection(db, target) : undefined;
  // A leading $match is answered by the collection, through its indexes where it can.
  const [first] = pipeline;
  const leadingMatch =
    first && Object.keys(first)[0] === '$match' ? (first['$match'] as Document) : undefined;
  const input = collection
    ? leadingMatch
      ? collection.find(leadingMatch, undefined, match)
      : [...collection.all()]
    : [];
  const stages = leadingMatch ? pipeline.slice(1) : pipeline;
  const resolver = (name: string) => [...(context.engine.collection(db, name)?.all() ?? [])];
  let output: Document[];
  try {
    output = aggregatorOf(stages, { ...match, resolver }).run(
      input.map((doc) => cloneDocument(doc)),
    ) as Document[];
  } catch (error) {
    throw evaluationError(error, 'BadValue');
  }
  const cursorOptions = (body['cursor'] ?? {}) as Document;
  const name = typeof target === 'string' ? target : '$cmd.aggregate';
  return {
    cursor: context.openCursor(`${db}.${name}`, output, toNumber(cursorOptions['batchSize'], 101)),
    ok: 1,
  };
};

const count: Handler = (body, db, context) => {
  const name = collectionName(body, 'count');
  const collection = context.engine.collection(db, name);
  const skip = toNumber(body['skip'], 0);
  const limit = Math.abs(toNumber(body['limit'], 0));
  const match = matchOf('count', body, body['collation'], body['query']);
  let n = collection
    ? collection.find((body['query'] ?? {}) as Document, undefined, match).length
    : 0;
  n = Math.max(0, n - skip);
  if (limit > 0) n = Math.min(n, limit);
  return { n, ok: 1 };
};

const distinct: Handler = (body, db, context) => {
  const name = collectionName(body, 'distinct');
  const key = body['key'];
  if (typeof key !== 'string') throw new CommandError('FailedToParse', "'key' must be a string");
  const collection = context.engine.collection(db, name);
  const match = matchOf('distinct', body, body['collation'], body['query']);
  const documents = collection
    ? collection.find((body['query'] ?? {}) as Document, undefined, match)
    : [];
  const unwound = aggregatorOf([
    { $unwind: { path: `$${key}`, preserveNullAndEmptyArrays: false } },
    { $project: { _id: 0, value: `$${key}` } },
  ]).run(documents.map((doc) => cloneDocument(doc))) as Document[];
  // One value of each set the collation finds equal (the first met), as MongoDB answers.
  const values: unknown[] = [];
  const seen = new Set<string>();
  for (const { value } of unwound) {
    if (value === undefined) continue;
    if (match.collation) {
      const collation = match.collation;
      if (values.some((kept) => collation.equals(kept, value))) continue;
    } else {
      if (seen.has(valueKey(value))) continue;
      seen.add(valueKey(value));
    }
    values.push(value);
  }
  return { values, ok: 1 };
};

const create: Handler = async (body, db, context) => {
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
const collMod: Handler = async (body, db, context) => {
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

const drop: Handler = async (body, db, context) => {
  const name = collectionName(body, 'drop');
  const collection = context.engine.collection(db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', 'ns not found');
  const nIndexesWas = collection.indexSpecs().length;
  const record: JournalRecord = { op: 'dropCollection', db, coll: name };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { ns: `${db}.${name}`, nIndexesWas, ok: 1 };
};

const dropDatabase: Handler = async (_body, db, context) => {
  const record: JournalRecord = { op: 'dropDatabase', db };
  context.engine.apply(record);
  await context.engine.commit([record]);
  return { dropped: db, ok: 1 };
};

const createIndexes: Handler = (body, db, context) => {
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

const listIndexes: Handler = (body, db, context) => {
  const name = collectionName(body, 'listIndexes');
  const collection = context.engine.collection(db, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const indexes = collection.indexSpecs().map((spec) => ({ v: 2, ...spec }));
  return { cursor: context.openCursor(`${db}.${name}`, indexes, undefined), ok: 1 };
};

const dropIndexes: Handler = async (body, db, context) => {
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

const listCollections: Handler = (body, db, context) => {
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

const listDatabases: Handler = (body, _db, context) => {
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

/** `explain` of a find: the plan chosen and what it examined (executionStats, as MongoDB reports). */
const explain: Handler = (body, db, context) => {
  const inner = body['explain'] as Document | undefined;
  if (!inner || typeof inner !== 'object' || typeof inner['find'] !== 'string') {
    throw new CommandError(
      'CommandNotFound',
      'explain is supported for find only by the embedded server',
    );
  }
  const name = collectionName(inner, 'find');
  const collection = context.engine.collection(db, name);
  const stats = newScanStats();
  const started = Date.now();
  const documents = collection
    ? collection.findSorted(
        (inner['filter'] ?? {}) as Document,
        inner['sort'] as SortSpec | undefined,
        toNumber(inner['skip'], 0),
        Math.abs(toNumber(inner['limit'], 0)),
        stats,
        matchOf('find', inner, inner['collation'], inner['filter']),
      )
    : [];
  const scan =
    stats.stage === 'IXSCAN'
      ? { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: stats.indexName } }
      : { stage: stats.stage };
  return {
    queryPlanner: { namespace: `${db}.${name}`, winningPlan: scan, rejectedPlans: [] },
    executionStats: {
      executionSuccess: true,
      nReturned: documents.length,
      executionTimeMillis: Date.now() - started,
      totalDocsExamined: stats.docsExamined,
    },
    ok: 1,
  };
};

const handlers: Record<string, Handler> = {
  hello: () => hello(),
  ismaster: () => hello(),
  isMaster: () => hello(),
  ping: () => ({ ok: 1 }),
  buildInfo: () => buildInfo(),
  buildinfo: () => buildInfo(),
  getParameter: (body) => ({
    ...(body['featureCompatibilityVersion']
      ? { featureCompatibilityVersion: { version: '7.0' } }
      : {}),
    ok: 1,
  }),
  hostInfo: () => ({
    system: { currentTime: new Date(), hostname: 'localhost', numCores: 1 },
    os: { type: process.platform },
    extra: {},
    ok: 1,
  }),
  endSessions: () => ({ ok: 1 }),
  listDatabases,
  listCollections,
  create,
  collMod,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  explain,
};

/** Runs one command and answers as MongoDB would, errors included. */
export async function runCommand(body: Document, context: CommandContext): Promise<Document> {
  const [name] = Object.keys(body);
  const db = typeof body['$db'] === 'string' ? body['$db'] : 'admin';
  try {
    if (body['startTransaction'] === true || body['autocommit'] === false) {
      throw new CommandError(
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    const handler = name ? handlers[name] : undefined;
    if (!name || !handler) {
      throw new CommandError('CommandNotFound', `no such command: '${name ?? ''}'`);
    }
    refuseUnsupported(name, body, db, context.engine);
    return await handler(body, db, context);
  } catch (error) {
    if (error instanceof CommandError) return error.toDocument();
    const evaluated = evaluationError(error, 'BadValue');
    if (evaluated.codeName === 'Location17276') return evaluated.toDocument();
    return { ok: 0, errmsg: (error as Error).message, code: 1, codeName: 'InternalError' };
  }
}
