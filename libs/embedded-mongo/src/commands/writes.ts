/** The write commands: insert, update, delete and findAndModify, each as one journalled batch. */

import type { Document } from 'bson';
import { collectionName, matchOf, toNumber } from './arguments.js';
import type { Handler } from './context.js';
import { write } from './write-batch.js';
import { CommandError, DuplicateKeyError } from '../errors.js';
import { applyUpdate, Collection } from '../store/collection.js';
import type { SortSpec } from '../store/sorting.js';
import { project } from '../store/projection.js';
import { sameValue } from '../store/values.js';

export const insert: Handler = (body, db, context) => {
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

export const update: Handler = (body, db, context) => {
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

export const remove: Handler = (body, db, context) => {
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

export const findAndModify: Handler = (body, db, context) => {
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
