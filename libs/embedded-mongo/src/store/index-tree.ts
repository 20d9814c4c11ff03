import type { Document } from 'bson';
import BTreeModule from 'sorted-btree';
import { CommandError, DuplicateKeyError } from '../errors.js';
import { compareValues, getPath, MAX_BOUND, MIN_BOUND } from './values.js';
import type { Query } from 'mingo/query';
import { queryOf } from './matching.js';

// sorted-btree is CommonJS: imported from ESM, its `default` export is a property of the module.
const BTree = BTreeModule.default;
type Tree = InstanceType<typeof BTree<IndexKey, true>>;

/** An index entry: the indexed values in key order, then the document's `_id` key. */
export type IndexKey = readonly unknown[];

export interface IndexSpec {
  readonly name: string;
  readonly key: Document;
  readonly unique?: boolean;
  readonly sparse?: boolean;
  readonly partialFilterExpression?: Document;
}

/** Validates a `createIndexes` entry and gives it MongoDB's default name. */
export function parseIndexSpec(raw: Document): IndexSpec {
  const key = raw['key'] as Document | undefined;
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw new CommandError('BadValue', 'Index key pattern must be a non-empty object');
  }
  for (const [field, direction] of Object.entries(key)) {
    if (direction !== 1 && direction !== -1) {
      throw new CommandError(
        'NotImplemented',
        `Index type ${JSON.stringify(direction)} on '${field}' is not supported by the embedded server (only 1 and -1)`,
      );
    }
  }
  const name =
    typeof raw['name'] === 'string'
      ? raw['name']
      : Object.entries(key)
          .map(([field, direction]) => `${field}_${String(direction)}`)
          .join('_');
  return {
    name,
    key,
    ...(raw['unique'] === true ? { unique: true } : {}),
    ...(raw['sparse'] === true ? { sparse: true } : {}),
    ...(raw['partialFilterExpression']
      ? { partialFilterExpression: raw['partialFilterExpression'] as Document }
      : {}),
  };
}

export function sameIndexSpec(a: IndexSpec, b: IndexSpec): boolean {
  return (
    JSON.stringify(a.key) === JSON.stringify(b.key) &&
    Boolean(a.unique) === Boolean(b.unique) &&
    Boolean(a.sparse) === Boolean(b.sparse) &&
    JSON.stringify(a.partialFilterExpression ?? null) ===
      JSON.stringify(b.partialFilterExpression ?? null)
  );
}

/** A secondary index: a B+ tree over (values…, _id key), for lookups, ranges and sorted scans. */
export class SecondaryIndex {
  readonly fields: readonly string[];
  private readonly directions: readonly number[];
  private readonly tree: Tree;
  private readonly partial: Query | undefined;
  /** True once a document put an array into the index: it can then not serve sorts. */
  multikey = false;

  constructor(
    readonly spec: IndexSpec,
    private readonly namespace: string,
  ) {
    this.fields = Object.keys(spec.key);
    this.directions = Object.values(spec.key) as number[];
    this.partial = spec.partialFilterExpression ? queryOf(spec.partialFilterExpression) : undefined;
    this.tree = new BTree<IndexKey, true>(undefined, (a: IndexKey, b: IndexKey) =>
      this.compare(a, b),
    );
  }

  get name(): string {
    return this.spec.name;
  }

  private compare(a: IndexKey, b: IndexKey): number {
    const length = Math.max(a.length, b.length);
    for (let index = 0; index < length; index += 1) {
      const x = a[index];
      const y = b[index];
      if (index >= this.fields.length) {
        // the _id key: plain string order; a bound shorter than the entry sorts as given
        if (x === y) continue;
        if (x === undefined || x === MIN_BOUND || y === MAX_BOUND) return -1;
        if (y === undefined || y === MIN_BOUND || x === MAX_BOUND) return 1;
        return (x as string) < (y as string) ? -1 : 1;
      }
      const order = compareValues(x, y) * (this.directions[index] ?? 1);
      if (order !== 0) return order;
    }
    return 0;
  }

  /** The index keys of a document (several for an array value), or none when it is left out. */
  keysOf(document: Document): unknown[][] {
    if (this.partial && !this.partial.test(document)) return [];
    const values = this.fields.map((field) => getPath(document, field));
    if (this.spec.sparse && values.every((value) => value === undefined)) return [];
    let keys: unknown[][] = [[]];
    for (const value of values) {
      const options = Array.isArray(value)
        ? value.length > 0
          ? value
          : [undefined]
        : [value === undefined ? null : value];
      if (Array.isArray(value)) this.multikey = true;
      keys = keys.flatMap((prefix) => options.map((option) => [...prefix, option ?? null]));
    }
    return keys;
  }

  /** Throws MongoDB's duplicate-key error if `document` collides with another document. */
  checkUnique(document: Document, idKey: string): void {
    if (!this.spec.unique) return;
    for (const key of this.keysOf(document)) {
      let clash = false;
      const high: IndexKey = [...key, MAX_BOUND];
      for (const [entry] of this.tree.entries([...key, MIN_BOUND])) {
        if (this.tree._compare(entry, high) > 0) break;
        if (entry[this.fields.length] !== idKey) {
          clash = true;
          break;
        }
      }
      if (clash) {
        const keyValue = Object.fromEntries(this.fields.map((field, i) => [field, key[i]]));
        throw new DuplicateKeyError(this.namespace, this.name, this.spec.key, keyValue);
      }
    }
  }

  add(document: Document, idKey: string): void {
    for (const key of this.keysOf(document)) this.tree.set([...key, idKey], true);
  }

  remove(document: Document, idKey: string): void {
    for (const key of this.keysOf(document)) this.tree.delete([...key, idKey]);
  }

  /**
   * The `_id` keys of the entries whose first field lies between `low` and `high` (bounds
   * included as the flags say), in index order (or reversed).
   */
  scan(
    low: unknown = MIN_BOUND,
    high: unknown = MAX_BOUND,
    options: { includeLow?: boolean; includeHigh?: boolean; reverse?: boolean } = {},
  ): Iterable<string> {
    const { includeLow = true, includeHigh = true, reverse = false } = options;
    const direction = this.directions[0] ?? 1;
    // For a descending first field, the tree holds high values first.
    const [from, to] = direction === 1 ? [low, high] : [high, low];
    const [includeFrom, includeTo] =
      direction === 1 ? [includeLow, includeHigh] : [includeHigh, includeLow];
    // The second position is the next field (or the _id): its bounds must be the lowest and
    // highest in tree order, which for a descending field are the value space's reversed.
    const next = this.fields.length > 1 ? (this.directions[1] ?? 1) : 1;
    const [treeMin, treeMax] = next === 1 ? [MIN_BOUND, MAX_BOUND] : [MAX_BOUND, MIN_BOUND];
    const lowKey: IndexKey = [from, includeFrom ? treeMin : treeMax];
    const highKey: IndexKey = [to, includeTo ? treeMax : treeMin];
    const idPosition = this.fields.length;
    const tree = this.tree;
    const entries = function* (): Generator<string> {
      const seen = new Set<string>();
      const iterator = reverse ? tree.entriesReversed(highKey) : tree.entries(lowKey);
      for (const [entry] of iterator) {
        if (reverse ? tree._compare(entry, lowKey) < 0 : tree._compare(entry, highKey) > 0) break;
        if (!reverse && tree._compare(entry, lowKey) < 0) continue;
        if (reverse && tree._compare(entry, highKey) > 0) continue;
        const id = entry[idPosition] as string;
        if (seen.has(id)) continue; // a multikey document appears once
        seen.add(id);
        yield id;
      }
    };
    return { [Symbol.iterator]: entries };
  }

  clear(): void {
    this.tree.clear();
  }
}
