import { mkdirSync } from 'node:fs';
import { Collection } from './collection.js';
import { parseIndexSpec } from './index-tree.js';
import { Journal, type JournalRecord } from './journal.js';
import { lockStore } from './lock.js';

/** When the journal is rewritten as the live data alone. */
export interface CompactionPolicy {
  /** …once it is this many times the size of the live data… */
  readonly ratio: number;
  /** …and at least this big. */
  readonly minBytes: number;
}

const defaultCompaction: CompactionPolicy = { ratio: 3, minBytes: 8 * 1024 * 1024 };

/**
 * The databases in memory, made durable by the journal: every change is applied in memory
 * at once (so single-document writes are atomic: Node runs one command at a time) and
 * acknowledged once its journal records are on disk.
 */
export class Engine {
  private readonly databases = new Map<string, Map<string, Collection>>();
  private compacting: Promise<void> | undefined;

  private constructor(
    private readonly journal: Journal,
    private readonly unlock: () => Promise<void>,
    private readonly compaction: CompactionPolicy,
  ) {}

  static async open(dbPath: string, compaction = defaultCompaction): Promise<Engine> {
    mkdirSync(dbPath, { recursive: true });
    const unlock = await lockStore(dbPath);
    try {
      const { journal, records } = await Journal.open(dbPath);
      const engine = new Engine(journal, unlock, compaction);
      for (const record of records) engine.apply(record);
      return engine;
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  collections(db: string): Collection[] {
    return [...(this.databases.get(db)?.values() ?? [])];
  }

  collection(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** Applies a change in memory; `commit` makes it durable. */
  apply(record: JournalRecord): void {
    switch (record.op) {
      case 'createCollection': {
        const collection = this.ensureCollection(record.db, record.coll);
        if (record.options) collection.setValidation(record.options);
        return;
      }
      case 'collMod':
        this.collection(record.db, record.coll)?.setValidation(record.options);
        return;
      case 'dropCollection':
        this.databases.get(record.db)?.delete(record.coll);
        if (this.databases.get(record.db)?.size === 0) this.databases.delete(record.db);
        return;
      case 'dropDatabase':
        this.databases.delete(record.db);
        return;
      case 'createIndex': {
        const collection = this.ensureCollection(record.db, record.coll);
        const spec = parseIndexSpec(record.spec);
        if (!collection.hasIndex(spec.name)) collection.createIndex(spec);
        return;
      }
      case 'dropIndex':
        this.collection(record.db, record.coll)?.dropIndex(record.name);
        return;
      case 'put':
        this.ensureCollection(record.db, record.coll).put(record.doc);
        return;
      case 'delete':
        this.collection(record.db, record.coll)?.removeById(record.id);
        return;
    }
  }

  ensureCollection(db: string, name: string): Collection {
    let database = this.databases.get(db);
    if (!database) {
      database = new Map();
      this.databases.set(db, database);
    }
    let collection = database.get(name);
    if (!collection) {
      collection = new Collection(db, name);
      database.set(name, collection);
    }
    return collection;
  }

  /** Resolves once `records` (already applied in memory) are on disk. */
  async commit(records: readonly JournalRecord[]): Promise<void> {
    await this.journal.append(records);
    if (
      !this.compacting &&
      this.journal.bytes > this.compaction.minBytes &&
      this.journal.bytes > this.compaction.ratio * Math.max(this.liveBytes(), 1)
    ) {
      this.compacting = this.compact().finally(() => {
        this.compacting = undefined;
      });
    }
  }

  /** Rewrites the journal as the live state alone. */
  async compact(): Promise<void> {
    await this.journal.compact(this.snapshot());
  }

  get journalBytes(): number {
    return this.journal.bytes;
  }

  private snapshot(): JournalRecord[] {
    const records: JournalRecord[] = [];
    for (const [db, collections] of this.databases) {
      for (const [coll, collection] of collections) {
        const options = collection.validationOptions;
        records.push({ op: 'createCollection', db, coll, ...(options ? { options } : {}) });
        for (const spec of collection.indexSpecs()) {
          if (spec.name === '_id_') continue;
          records.push({ op: 'createIndex', db, coll, spec: { ...spec } });
        }
        for (const doc of collection.all()) records.push({ op: 'put', db, coll, doc });
      }
    }
    return records;
  }

  /** The BSON size of every document held. */
  liveBytes(): number {
    let bytes = 0;
    for (const collections of this.databases.values()) {
      for (const collection of collections.values()) bytes += collection.dataBytes;
    }
    return bytes;
  }

  async close(): Promise<void> {
    await this.compacting;
    await this.journal.close();
    await this.unlock();
  }
}
