import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import type { Engine } from '../store/engine.js';
import { isPlainObject } from '../store/values.js';

/**
 * What this store does not do as MongoDB does: refused, with MongoDB's error code and a message
 * naming the option, never answered with a silently different result (libs/embedded-mongo's
 * README lists them).
 */
function notSupported(option: string, command: string): CommandError {
  return new CommandError(
    'NotImplemented',
    `${command}: the embedded store does not support the '${option}' option (it would not ` +
      'answer as MongoDB does); run a MongoDB server for it',
  );
}

/** The options a command may not carry here, at its top level. */
const REFUSED_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  create: [
    'viewOn',
    'pipeline',
    'collation',
    'capped',
    'timeseries',
    'expireAfterSeconds',
    'clusteredIndex',
    'changeStreamPreAndPostImages',
    'encryptedFields',
    'storageEngine',
    'indexOptionDefaults',
  ],
  collMod: [
    'index',
    'expireAfterSeconds',
    'viewOn',
    'pipeline',
    'changeStreamPreAndPostImages',
    'timeseries',
    'cappedSize',
    'cappedMax',
  ],
};

/**
 * Index options this store would accept and not honour: a TTL index's expiry, an index's own
 * collation, a hidden index, text weights and wildcard projections.
 */
const INDEX_OPTIONS_REFUSED = [
  'expireAfterSeconds',
  'collation',
  'hidden',
  'weights',
  'wildcardProjection',
];

/** The statements of an update or delete, each of which may carry options of its own. */
function statements(name: string, body: Document): Document[] {
  const list: unknown =
    name === 'update' ? body['updates'] : name === 'delete' ? body['deletes'] : undefined;
  return Array.isArray(list)
    ? list.filter((item): item is Document => typeof item === 'object' && item !== null)
    : [];
}

/** Whether `hint` (an index's name or key pattern, or $natural) names an index of the collection. */
function hintMatches(engine: Engine, db: string, collection: string, hint: unknown): boolean {
  const existing = engine.collection(db, collection);
  // MongoDB answers nothing for a collection that does not exist, whatever the hint.
  if (!existing) return true;
  if (typeof hint === 'string') return existing.hasIndex(hint);
  if (typeof hint !== 'object' || hint === null) return false;
  const keys = Object.keys(hint as Document);
  if (keys.length === 1 && keys[0] === '$natural') return true;
  const wanted = JSON.stringify(hint);
  return existing.indexSpecs().some((spec) => JSON.stringify(spec.key) === wanted);
}

function checkHint(engine: Engine, db: string, collection: string, hint: unknown): void {
  if (hint === undefined || hint === null) return;
  if (typeof hint === 'object' && Object.keys(hint as Document).length === 0) return;
  if (!hintMatches(engine, db, collection, hint)) {
    throw new CommandError(
      'BadValue',
      'error processing query: planner returned error :: caused by :: hint provided does not ' +
        'correspond to an existing index',
    );
  }
}

/**
 * Refuses a command that asks for what this store would answer differently from MongoDB 7.0
 * (the version it reports): views and the collection kinds it does not have (capped, time
 * series, clustered), an update's `sort` (8.0), and a hint naming no index.
 */
export function refuseUnsupported(name: string, body: Document, db: string, engine: Engine): void {
  for (const option of REFUSED_OPTIONS[name] ?? []) {
    if (body[option] !== undefined) throw notSupported(option, name);
  }
  const collection = typeof body[name] === 'string' ? (body[name] as string) : '';
  if (['find', 'aggregate', 'count', 'distinct', 'findAndModify', 'findandmodify'].includes(name)) {
    checkHint(engine, db, collection, body['hint']);
  }
  if (name === 'createIndexes' && Array.isArray(body['indexes'])) {
    for (const index of body['indexes'] as unknown[]) {
      if (typeof index !== 'object' || index === null) continue;
      for (const option of INDEX_OPTIONS_REFUSED) {
        if ((index as Document)[option] !== undefined) throw notSupported(option, name);
      }
    }
  }
  for (const statement of statements(name, body)) {
    // MongoDB 7.0, which this store reports, knows no `sort` on an update (8.0 added it).
    if (name === 'update' && statement['sort'] !== undefined) {
      throw new CommandError(
        'IDLUnknownField',
        "BSON field 'update.updates.sort' is an unknown field.",
      );
    }
    checkHint(engine, db, collection, statement['hint']);
  }
}

/**
 * What compares values without the command's collation here (MongoDB applies it): grouping and
 * joining stages, set expressions and accumulators, and the update operators that keep a set or
 * an extreme. Refused under a collation, so that none answers by the bytes of its strings.
 */
const COLLATION_BLIND = new Set([
  '$group',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$lookup',
  '$graphLookup',
  '$setWindowFields',
  '$indexOfArray',
  '$setEquals',
  '$setIntersection',
  '$setUnion',
  '$setDifference',
  '$setIsSubset',
  '$max',
  '$min',
  '$addToSet',
  '$maxN',
  '$minN',
  '$sortArray',
  '$top',
  '$bottom',
  '$topN',
  '$bottomN',
]);

function isConstant(value: unknown): boolean {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return true;
  return typeof value === 'string' && !value.startsWith('$');
}

/**
 * Refuses, under a collation, an operator in `spec` (a filter, a projection, an update or a
 * pipeline) that ignores it.
 */
export function refuseCollationBlind(spec: unknown, command: string): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      // A $group on a constant (countDocuments' { _id: 1 }) compares no strings: its
      // accumulators are still checked.
      if (key === '$group' && isConstant((inner as Document | null)?.['_id'])) {
        visit(inner);
        continue;
      }
      if (COLLATION_BLIND.has(key)) {
        throw new CommandError(
          'NotImplemented',
          `${command}: the embedded store does not support '${key}' with a collation (it would ` +
            'compare strings by their bytes); run a MongoDB server for it',
        );
      }
      visit(inner);
    }
  };
  visit(spec);
}
