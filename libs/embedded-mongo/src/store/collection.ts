import { type Document, ObjectId } from 'bson';
import { CommandError, DuplicateKeyError } from '../errors.js';
import { type IndexSpec, SecondaryIndex } from './index-tree.js';
import { aggregatorOf, applyUpdateOperators, type MatchOptions, queryOf } from './matching.js';
import { compareBySort, type SortSpec, sortedBy } from './sorting.js';
import { Validation, type ValidationOptions } from './validation.js';
import { bsonSize, cloneDocument, setPath, valueKey } from './values.js';

const ID_INDEX: IndexSpec = { name: '_id_', key: { _id: 1 } };

/** How many documents a sorted walk may read before a narrower plan takes over. */
const SORT_WALK_BUDGET = 1_000;

/** The largest page (skip + limit) chosen by a top-k selection rather than a whole sort. */
const TOP_K_MAX = 100;

const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);

function isOperatorObject(value: unknown): value is Document {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof ObjectId || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** The equality value a filter condition pins a field to, if it does. */
function equalityOf(condition: unknown): { value: unknown } | undefined {
  if (condition instanceof RegExp) return undefined;
  if (!isOperatorObject(condition)) {
    if (Array.isArray(condition)) return undefined; // matches arrays or elements: leave to mingo
    if (condition && typeof condition === 'object') return undefined; // embedded document
    return { value: condition };
  }
  const keys = Object.keys(condition);
  if (keys.length === 1 && keys[0] === '$eq') {
    const value = condition['$eq'];
    if (
      Array.isArray(value) ||
      (value &&
        typeof value === 'object' &&
        !(value instanceof Date) &&
        !(value instanceof ObjectId))
    )
      return undefined;
    return { value };
  }
  return undefined;
}

/** How a read was answered, for `explain`: the plan's stage and the documents it examined. */
export interface ScanStats {
  stage: 'IDHACK' | 'IXSCAN' | 'COLLSCAN';
  indexName?: string;
  docsExamined: number;
  /**
   * True when the candidates are exactly the matches, so no test is needed: the filter is one
   * equality on `_id` or on the field of a single-field index. (Saves a query per lookup.)
   */
  exact: boolean;
}

export function newScanStats(): ScanStats {
  return { stage: 'COLLSCAN', docsExamined: 0, exact: false };
}

/** True when `key` starts with the sort's fields, every direction the same or every one reversed. */
function servesSort(key: IndexSpec['key'], fields: readonly string[], sort: SortSpec): boolean {
  const keyFields = Object.keys(key);
  if (fields.length > keyFields.length) return false;
  const relation = (position: number) => {
    const field = fields[position] as string;
    return keyFields[position] === field ? (sort[field] ?? 1) * (key[field] as number) : 0;
  };
  const first = relation(0);
  return first !== 0 && fields.every((_, position) => relation(position) === first);
}

/** A plain upsert seed: the equality conditions of `filter` as a document. */
function seedFrom(filter: Document): Document {
  const seed: Document = {};
  const visit = (conditions: Document) => {
    for (const [field, condition] of Object.entries(conditions)) {
      if (field === '$and' && Array.isArray(condition)) {
        for (const part of condition) visit(part as Document);
        continue;
      }
      if (field.startsWith('$')) continue;
      const equality = equalityOf(condition);
      if (equality) setPath(seed, field, equality.value);
      else if (!isOperatorObject(condition) && condition && typeof condition === 'object')
        setPath(seed, field, condition);
    }
  };
  visit(filter);
  return seed;
}

export interface UpdateOptions {
  readonly arrayFilters?: Document[];
  /** The command's `let` variables and collation. */
  readonly match?: MatchOptions;
  /** The query that selected the document: it resolves the positional `$` operator. */
  readonly filter?: Document;
  readonly insert?: boolean;
}

/** The new version of `document` after `update` (operators, replacement or pipeline). */
export function applyUpdate(
  document: Document,
  update: unknown,
  options: UpdateOptions = {},
): Document {
  const original = document['_id'];
  let next: Document;
  if (Array.isArray(update)) {
    const [result] = aggregatorOf(update as Document[], options.match).run([
      cloneDocument(document),
    ]) as Document[];
    next = result ?? {};
    // A stage that drops `_id` ($replaceRoot, $replaceWith, $unset) keeps the original, as in
    // MongoDB; only a different `_id` is refused.
    if (next['_id'] === undefined) next = { _id: original, ...next };
  } else if (update && typeof update === 'object' && isOperatorObject(update)) {
    const operators: Document = { ...(update as Document) };
    const onInsert = operators['$setOnInsert'] as Document | undefined;
    delete operators['$setOnInsert'];
    if (onInsert && options.insert) {
      operators['$set'] = { ...(operators['$set'] as Document | undefined), ...onInsert };
    }
    next = cloneDocument(document);
    if (Object.keys(operators).length > 0) {
      try {
        applyUpdateOperators(next, operators, options.arrayFilters, options.filter, options.match);
      } catch (error) {
        throw new CommandError('FailedToParse', (error as Error).message);
      }
    }
  } else if (update && typeof update === 'object') {
    const replacement = update as Document;
    for (const key of Object.keys(replacement)) {
      if (key.startsWith('$')) throw new CommandError('FailedToParse', `Unknown modifier: ${key}`);
    }
    next = { _id: original, ...cloneDocument(replacement) };
  } else {
    throw new CommandError('FailedToParse', 'Update document must be an object or a pipeline');
  }
  if (original !== undefined && valueKey(next['_id']) !== valueKey(original)) {
    throw new CommandError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  // MongoDB keeps `_id` as the first field, whatever the update did.
  const { _id: id, ...rest } = next;
  return { _id: id === undefined ? original : id, ...rest };
}

/**
 * One collection: its documents by `_id`, in insertion order, and its secondary indexes. Every
 * write checks all unique indexes before it changes anything, so a failed write changes nothing.
 */
export class Collection {
  private readonly documents = new Map<string, Document>();
  private readonly indexes = new Map<string, SecondaryIndex>();
  private validation: Validation | undefined;
  /** The BSON size of the documents held, kept as they change (for journal compaction). */
  dataBytes = 0;

  constructor(
    readonly db: string,
    readonly name: string,
  ) {}

  get namespace(): string {
    return `${this.db}.${this.name}`;
  }

  /** The validator and its level and action (`create`, `collMod`), if any was set. */
  get validationOptions(): ValidationOptions | undefined {
    return this.validation?.options;
  }

  setValidation(options: ValidationOptions): void {
    const merged = { ...this.validation?.options, ...options };
    this.validation = Object.keys(merged).length > 0 ? new Validation(merged) : undefined;
  }

  /**
   * Throws 121 DocumentValidationFailure when the validator refuses `next` (replacing
   * `previous`, for an update). The journal's replay does not check: what is there was accepted.
   */
  validate(next: Document, previous?: Document): void {
    this.validation?.check(next, previous);
  }

  get count(): number {
    return this.documents.size;
  }

  *all(): IterableIterator<Document> {
    yield* this.documents.values();
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  hasIndex(name: string): boolean {
    return name === ID_INDEX.name || this.indexes.has(name);
  }

  getIndex(name: string): SecondaryIndex | undefined {
    return this.indexes.get(name);
  }

  /** Builds an index over the documents there are; refuses one that existing documents violate. */
  createIndex(spec: IndexSpec): void {
    const index = new SecondaryIndex(spec, this.namespace);
    for (const [idKey, document] of this.documents) {
      index.checkUnique(document, idKey);
      index.add(document, idKey);
    }
    this.indexes.set(spec.name, index);
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
  }

  dropIndexes(): void {
    this.indexes.clear();
  }

  /** Inserts a new document (it must carry an `_id`). */
  insert(document: Document): void {
    const idKey = valueKey(document['_id']);
    if (this.documents.has(idKey)) {
      throw new DuplicateKeyError(this.namespace, '_id_', { _id: 1 }, { _id: document['_id'] });
    }
    for (const index of this.indexes.values()) index.checkUnique(document, idKey);
    this.documents.set(idKey, document);
    for (const index of this.indexes.values()) index.add(document, idKey);
    this.dataBytes += bsonSize(document);
  }

  /** Replaces the stored version of a document with `next` (same `_id`). */
  replace(previous: Document, next: Document): void {
    const idKey = valueKey(previous['_id']);
    for (const index of this.indexes.values()) index.checkUnique(next, idKey);
    for (const index of this.indexes.values()) index.remove(previous, idKey);
    this.documents.set(idKey, next);
    for (const index of this.indexes.values()) index.add(next, idKey);
    this.dataBytes += bsonSize(next) - bsonSize(previous);
  }

  /** Puts a document as the journal has it: inserted, or replacing the one with its `_id`. */
  put(document: Document): void {
    const previous = this.documents.get(valueKey(document['_id']));
    if (previous) this.replace(previous, document);
    else this.insert(document);
  }

  remove(document: Document): void {
    const idKey = valueKey(document['_id']);
    if (!this.documents.delete(idKey)) return;
    for (const index of this.indexes.values()) index.remove(document, idKey);
    this.dataBytes -= bsonSize(document);
  }

  removeById(id: unknown): void {
    const document = this.documents.get(valueKey(id));
    if (document) this.remove(document);
  }

  /**
   * The documents matching `filter`, using an index when one pins or bounds a field of the
   * filter; the full filter is then tested on each candidate.
   */
  find(
    filter: Document = {},
    stats: ScanStats = newScanStats(),
    options: MatchOptions = {},
  ): Document[] {
    const candidates = this.candidates(filter, stats, options);
    if (stats.exact) return [...candidates];
    const query = queryOf(filter, options);
    const matches: Document[] = [];
    for (const document of candidates) {
      if (query.test(document)) matches.push(document);
    }
    return matches;
  }

  /**
   * A sorted page (`skip`, `limit`), read in index order when an index serves the sort, so that
   * only the documents of the page (and the ones skipped or filtered out) are visited.
   */
  findSorted(
    filter: Document,
    sort: SortSpec | undefined,
    skip: number,
    limit: number,
    stats: ScanStats = newScanStats(),
    options: MatchOptions = {},
  ): Document[] {
    const sortFields = sort ? Object.keys(sort) : [];
    // The indexes order strings by their bytes: a collation's order needs the sort below.
    const index =
      sort && sortFields.length > 0 && limit > 0 && !options.collation
        ? this.sortIndex(sortFields, sort)
        : undefined;
    if (sort && index) {
      const page = this.walkSortIndex(filter, sort, index, skip, limit, stats, options);
      if (page) return page;
    }
    const matches = this.find(filter, stats, options);
    if (!sort || sortFields.length === 0) {
      return matches.slice(skip, limit > 0 ? skip + limit : undefined);
    }
    const wanted = skip + limit;
    if (limit <= 0 || wanted > TOP_K_MAX) {
      // A stable sort: equal documents keep their order of insertion.
      return sortedBy(matches, sort, options.collation).slice(skip, limit > 0 ? wanted : undefined);
    }
    // A small page: only its documents are kept in order (a top-k selection), each placed after
    // the equal ones already kept, so the result is the stable sort's page. (A large one would
    // move up to k documents for each match: the sort is cheaper there.)
    const compare = compareBySort(sort, options.collation);
    const kept: Document[] = [];
    for (const document of matches) {
      if (kept.length === wanted && compare(document, kept[wanted - 1] as Document) >= 0) continue;
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (compare(document, kept[middle] as Document) < 0) high = middle;
        else low = middle + 1;
      }
      kept.splice(low, 0, document);
      if (kept.length > wanted) kept.pop();
    }
    return kept.slice(skip);
  }

  /**
   * A sorted page read along `index` (which serves the sort). When another index narrows the
   * filter, the walk reads at most SORT_WALK_BUDGET documents (or 20 pages' worth) before it
   * gives up for the narrowed candidates (undefined: the caller reads and sorts those). A broad
   * filter (a month of the season's debates) fills the page early; a selective one gives up.
   */
  private walkSortIndex(
    filter: Document,
    sort: SortSpec,
    index: SecondaryIndex,
    skip: number,
    limit: number,
    stats: ScanStats,
    options: MatchOptions,
  ): Document[] | undefined {
    const field = Object.keys(sort)[0] as string;
    const narrowed = this.stageOf(filter) !== 'COLLSCAN';
    const budget = narrowed ? Math.max(SORT_WALK_BUDGET, (skip + limit) * 20) : Infinity;
    const query = queryOf(filter, options);
    const reverse = (sort[field] ?? 1) !== (index.spec.key[field] as number);
    const page: Document[] = [];
    let toSkip = skip;
    let walked = 0;
    for (const idKey of index.scan(undefined, undefined, { reverse })) {
      if (walked >= budget) return undefined;
      walked += 1;
      const document = this.documents.get(idKey);
      stats.docsExamined += 1;
      if (!document || !query.test(document)) continue;
      if (toSkip > 0) {
        toSkip -= 1;
        continue;
      }
      page.push(document);
      if (page.length >= limit) break;
    }
    stats.stage = 'IXSCAN';
    stats.indexName = index.name;
    return page;
  }

  /** An index that serves `sort` (its leading fields, all in its order or all reversed). */
  private sortIndex(fields: readonly string[], sort: SortSpec): SecondaryIndex | undefined {
    return [...this.indexes.values()].find(
      (candidate) =>
        !candidate.multikey &&
        !candidate.spec.sparse &&
        !candidate.spec.partialFilterExpression &&
        servesSort(candidate.spec.key, fields, sort),
    );
  }

  /** The plan `candidates` follows for `filter`. */
  private stageOf(filter: Document): ScanStats['stage'] {
    const stats = newScanStats();
    this.plan(filter, stats);
    return stats.stage;
  }

  /** The candidates of `filter`, counted in `stats` as they are read (the plan is chosen now). */
  private candidates(
    filter: Document,
    stats: ScanStats,
    options: MatchOptions,
  ): Iterable<Document> {
    // An index holds strings by their bytes: under a collation, equal strings may lie apart.
    const planned = options.collation ? this.collectionScan(stats) : this.plan(filter, stats);
    return (function* () {
      for (const document of planned) {
        stats.docsExamined += 1;
        yield document;
      }
    })();
  }

  /** Chooses how to read `filter`'s candidates (recorded in `stats`), lazily. */
  private plan(filter: Document, stats: ScanStats): Iterable<Document> {
    const idCondition = filter['_id'];
    if (idCondition !== undefined) {
      const equality = equalityOf(idCondition);
      if (equality) {
        stats.stage = 'IDHACK';
        stats.exact = Object.keys(filter).length === 1;
        const document = this.documents.get(valueKey(equality.value));
        return document ? [document] : [];
      }
      if (isOperatorObject(idCondition) && Array.isArray(idCondition['$in'])) {
        stats.stage = 'IXSCAN';
        stats.indexName = '_id_';
        const keys = new Set((idCondition['$in'] as unknown[]).map(valueKey));
        return this.lookup(keys);
      }
    }
    for (const index of this.indexes.values()) {
      if (index.spec.sparse || index.spec.partialFilterExpression) continue;
      const field = index.fields[0] as string;
      const condition = filter[field];
      if (condition === undefined) continue;
      const equality = equalityOf(condition);
      if (equality && equality.value !== null && equality.value !== undefined) {
        stats.stage = 'IXSCAN';
        stats.indexName = index.name;
        stats.exact = Object.keys(filter).length === 1 && index.fields.length === 1;
        return this.lookup(index.scan(equality.value, equality.value));
      }
      if (
        isOperatorObject(condition) &&
        Object.keys(condition).every((op) => RANGE_OPERATORS.has(op))
      ) {
        const low = condition['$gt'] ?? condition['$gte'];
        const high = condition['$lt'] ?? condition['$lte'];
        if (low === null || high === null) continue;
        stats.stage = 'IXSCAN';
        stats.indexName = index.name;
        return this.lookup(
          index.scan(low ?? undefined, high ?? undefined, {
            includeLow: !('$gt' in condition),
            includeHigh: !('$lt' in condition),
          }),
        );
      }
    }
    return this.collectionScan(stats);
  }

  private collectionScan(stats: ScanStats): Iterable<Document> {
    stats.stage = 'COLLSCAN';
    return this.documents.values();
  }

  private *lookup(ids: Iterable<string>): Iterable<Document> {
    for (const idKey of ids) {
      const document = this.documents.get(idKey);
      if (document) yield document;
    }
  }

  /** The document an upsert inserts when nothing matched. */
  static upsertSeed(filter: Document): Document {
    return seedFrom(filter);
  }
}
