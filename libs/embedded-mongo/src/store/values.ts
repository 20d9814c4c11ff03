import { Binary, BSON, type Document, Decimal128, Long, ObjectId, Timestamp } from 'bson';

/** Bounds for index range scans: below and above every BSON value. */
export const MIN_BOUND = Symbol('min');
export const MAX_BOUND = Symbol('max');

/** MongoDB's comparison order of BSON types (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/). */
function typeRank(value: unknown): number {
  if (value === MIN_BOUND) return 0;
  if (value === MAX_BOUND) return 100;
  if (value === null || value === undefined) return 2;
  if (typeof value === 'number' || typeof value === 'bigint') return 3;
  if (value instanceof Long || value instanceof Decimal128) return 3;
  if (typeof value === 'string') return 4;
  if (Array.isArray(value)) return 6;
  if (value instanceof Binary || value instanceof Uint8Array) return 7;
  if (value instanceof ObjectId) return 8;
  if (typeof value === 'boolean') return 9;
  if (value instanceof Date) return 10;
  if (value instanceof Timestamp) return 11;
  if (value instanceof RegExp) return 12;
  if (typeof value === 'object') {
    const bsontype = (value as { _bsontype?: string })._bsontype;
    if (bsontype === 'MinKey') return 1;
    if (bsontype === 'MaxKey') return 13;
    if (bsontype === 'Double' || bsontype === 'Int32') return 3;
    return 5;
  }
  return 5;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Decimal128) return Number(value.toString());
  const boxed = value as { valueOf(): unknown };
  return Number(boxed.valueOf());
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let index = 0; index < a.length; index += 1) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** How two strings compare: by their UTF-8 bytes unless a collation says otherwise. */
export type StringOrder = (a: string, b: string) => number;

const binaryOrder: StringOrder = (a, b) => (a === b ? 0 : a < b ? -1 : 1);

/**
 * Compares two values in MongoDB's order: by type rank first, then within the type; strings,
 * also inside arrays and documents, by `strings` (a collation's order when there is one).
 */
export function compareValues(a: unknown, b: unknown, strings: StringOrder = binaryOrder): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  switch (rankA) {
    case 3: {
      const x = toNumber(a);
      const y = toNumber(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4:
      return strings(a as string, b as string);
    case 5: {
      const entriesA = Object.entries(a as Document);
      const entriesB = Object.entries(b as Document);
      for (let index = 0; index < Math.min(entriesA.length, entriesB.length); index += 1) {
        const [keyA, valueA] = entriesA[index] as [string, unknown];
        const [keyB, valueB] = entriesB[index] as [string, unknown];
        const byValueType = typeRank(valueA) - typeRank(valueB);
        if (byValueType !== 0) return byValueType < 0 ? -1 : 1;
        if (keyA !== keyB) return keyA < keyB ? -1 : 1;
        const byValue = compareValues(valueA, valueB, strings);
        if (byValue !== 0) return byValue;
      }
      return Math.sign(entriesA.length - entriesB.length);
    }
    case 6: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let index = 0; index < Math.min(x.length, y.length); index += 1) {
        const byElement = compareValues(x[index], y[index], strings);
        if (byElement !== 0) return byElement;
      }
      return Math.sign(x.length - y.length);
    }
    case 7: {
      const x = a instanceof Binary ? a.buffer : (a as Uint8Array);
      const y = b instanceof Binary ? b.buffer : (b as Uint8Array);
      return compareBytes(x, y);
    }
    case 8: {
      const x = (a as ObjectId).toHexString();
      const y = (b as ObjectId).toHexString();
      return x === y ? 0 : x < y ? -1 : 1;
    }
    case 9:
      return a === b ? 0 : a ? 1 : -1;
    case 10: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 11: {
      return (a as Timestamp).compare(b as Timestamp);
    }
    case 12: {
      const x = String(a);
      const y = String(b);
      return x === y ? 0 : x < y ? -1 : 1;
    }
    default:
      return 0;
  }
}

/**
 * A string that is equal for two values exactly when MongoDB finds them equal (1 and 1.0 alike),
 * for hashing `_id`s and equality index lookups.
 */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return 'z';
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number') return `n${Object.is(value, -0) ? 0 : value}`;
  if (typeof value === 'boolean') return value ? 'b1' : 'b0';
  if (value instanceof ObjectId) return `o${value.toHexString()}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  if (value instanceof Long) return `n${value.toString()}`;
  return `x${BSON.EJSON.stringify(value as Document, { relaxed: false })}`;
}

/**
 * A deep copy of a document as the store holds it (values as the wire decoded them): objects,
 * arrays and dates are copied; BSON's value types (ObjectId, Long, Binary…), which nothing in the
 * store changes, are shared. An update changes its copy in place, never the stored version.
 */
export function cloneDocument<T extends Document>(document: T): T {
  return cloneValue(document) as T;
}

function cloneValue(value: unknown): unknown {
  // BSON has no undefined: it is written (and so read back) as null, a hole in an array too.
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Array.from(value, cloneValue);
  if (value instanceof Date) return new Date(value.getTime());
  if (!isPlainObject(value)) return value;
  const copy: Document = {};
  for (const key of Object.keys(value)) {
    // A field named __proto__ (BSON allows it) stays a field, as the wire decoded it.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: cloneValue(value[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else copy[key] = cloneValue(value[key]);
  }
  return copy;
}

const sizes = new WeakMap<Document, number>();

/**
 * The BSON size of a document as the store holds it. A stored version never changes (an update
 * makes a new one), so each is measured once, however often its size is asked.
 */
export function bsonSize(document: Document): number {
  let size = sizes.get(document);
  if (size === undefined) {
    size = BSON.calculateObjectSize(document);
    sizes.set(document, size);
  }
  return size;
}

/**
 * Whether two stored values are the same BSON: the same fields in the same order, the same types
 * and values. BSON's own value types are compared by their encoding; undefined (a hole in an
 * array) is null, as BSON writes it; -0 is not 0 (a double, not an int32).
 */
export function sameValue(left: unknown, right: unknown): boolean {
  const a = left === undefined ? null : left;
  const b = right === undefined ? null : right;
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) {
      if (!sameValue(a[index], b[index])) return false;
    }
    return true;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    const others = Object.keys(b);
    return (
      keys.length === others.length &&
      keys.every((key, index) => key === others[index] && sameValue(a[key], b[key]))
    );
  }
  if (isPlainObject(a) || isPlainObject(b)) return false;
  return Buffer.from(BSON.serialize({ v: a })).equals(BSON.serialize({ v: b }));
}

/** The value at a dotted path; through arrays, the list of the values found in their elements. */
export function getPath(document: unknown, path: string): unknown {
  let current: unknown = document;
  for (const part of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (Array.isArray(current) && !/^\d+$/.test(part)) {
      const found = current
        .map((item) => (item && typeof item === 'object' ? (item as Document)[part] : undefined))
        .filter((item) => item !== undefined);
      current = found.length > 0 ? found.flat() : undefined;
      continue;
    }
    if (typeof current !== 'object') return undefined;
    current = (current as Document)[part];
  }
  return current;
}

/** Sets a dotted path, creating the objects on the way (for upsert seeds). */
export function setPath(document: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let current: Document = document;
  for (const part of parts.slice(0, -1)) {
    const next = current[part] as unknown;
    if (!next || typeof next !== 'object') current[part] = {};
    current = current[part] as Document;
  }
  current[parts.at(-1) as string] = value;
}

/** A plain document (not an array, nor a BSON value such as an ObjectId or a Date). */
export function isPlainObject(value: unknown): value is Document {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
