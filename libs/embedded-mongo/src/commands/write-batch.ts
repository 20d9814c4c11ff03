import { type Document, ObjectId } from 'bson';
import type { CommandContext } from './context.js';
import { CommandError } from '../errors.js';
import type { Collection } from '../store/collection.js';
import type { Engine } from '../store/engine.js';
import type { IndexSpec } from '../store/index-tree.js';
import type { JournalRecord } from '../store/journal.js';
import { bsonSize, isPlainObject } from '../store/values.js';
import { MAX_BSON_OBJECT_SIZE } from '../wire/protocol.js';

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

/**
 * The document writes of one command on one collection: each is applied in memory at once and
 * recorded for the journal, with the collection's creation when the write creates it.
 */
export class WriteBatch {
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
export async function write<T>(
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
