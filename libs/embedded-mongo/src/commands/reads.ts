/** The read commands: find and its cursor's getMore and killCursors, count, distinct, explain. */

import { type Document, Long } from 'bson';
import { collectionName, matchOf, toNumber } from './arguments.js';
import { type Handler, takeBatch } from './context.js';
import { CommandError } from '../errors.js';
import { newScanStats } from '../store/collection.js';
import { aggregatorOf } from '../store/matching.js';
import { project } from '../store/projection.js';
import type { SortSpec } from '../store/sorting.js';
import { cloneDocument, valueKey } from '../store/values.js';

export const find: Handler = (body, db, context) => {
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

export const getMore: Handler = (body, db, context) => {
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

export const killCursors: Handler = (body, _db, context) => {
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

export const count: Handler = (body, db, context) => {
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

export const distinct: Handler = (body, db, context) => {
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

/** `explain` of a find: the plan chosen and what it examined (executionStats, as MongoDB reports). */
export const explain: Handler = (body, db, context) => {
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
