import type { Document } from 'bson';
import { queryOf } from './matching.js';
import { isPlainObject } from './values.js';

/** The fields an inclusion projection keeps: a leaf keeps the whole value, a node its fields. */
type Inclusion = Map<string, true | Inclusion>;

interface InclusionPlan {
  readonly fields: Inclusion;
  readonly keepId: boolean;
}

/** Says that this document needs the general projection (a dotted path crosses an array). */
const GENERAL = Symbol('general');

function isIncluded(value: unknown): boolean {
  return value === true || (typeof value === 'number' && value !== 0);
}

function isExcluded(value: unknown): boolean {
  return value === false || value === 0;
}

/**
 * The plan of `projection` when it only includes plain field paths (`{ a: 1, 'b.c': 1 }`,
 * `_id` kept unless `_id: 0`); undefined for anything else (an exclusion, `$slice`,
 * `$elemMatch`, a positional `$`, an expression, colliding paths).
 */
function inclusionPlan(projection: Document): InclusionPlan | undefined {
  const fields: Inclusion = new Map();
  let keepId = true;
  for (const [path, value] of Object.entries(projection)) {
    if (path === '_id') {
      if (isExcluded(value)) keepId = false;
      else if (!isIncluded(value)) return undefined;
      continue;
    }
    if (!isIncluded(value)) return undefined;
    const parts = path.split('.');
    if (parts.some((part) => part.length === 0 || part.startsWith('$'))) return undefined;
    let node = fields;
    for (const [index, part] of parts.entries()) {
      const existing = node.get(part);
      if (index === parts.length - 1) {
        if (existing !== undefined) return undefined; // a path collision: MongoDB refuses it
        node.set(part, true);
      } else {
        if (existing === true) return undefined;
        const child: Inclusion = existing ?? new Map();
        node.set(part, child);
        node = child;
      }
    }
  }
  return { fields, keepId };
}

/** `document` with only `fields`, in the document's own field order, as MongoDB returns it. */
function include(
  document: Document,
  fields: Inclusion,
  keepId: boolean,
): Document | typeof GENERAL {
  const projected: Document = {};
  for (const key of Object.keys(document)) {
    const value: unknown = document[key];
    if (keepId && key === '_id') {
      projected[key] = value;
      continue;
    }
    const field = fields.get(key);
    if (field === undefined) continue;
    if (field === true) {
      projected[key] = value;
    } else if (Array.isArray(value)) {
      return GENERAL; // a path into an array projects each element: left to mingo
    } else if (isPlainObject(value)) {
      const inner = include(value, field, false);
      if (inner === GENERAL) return GENERAL;
      projected[key] = inner;
    }
    // A path into a scalar keeps nothing of it.
  }
  return projected;
}

/**
 * A find's projection. The one the services send (plain fields and dotted paths included) is
 * applied directly; any other by mingo, whose general projection rebuilds every document
 * through its expression graph: on the community ranking's page that was 44% of this server's
 * CPU and most of its garbage. The result shares unchanged values with the stored documents,
 * which are never changed in place (an update stores a new document).
 */
export function project(documents: Document[], projection: Document | undefined): Document[] {
  if (!projection || Object.keys(projection).length === 0) return documents;
  const plan = inclusionPlan(projection);
  if (!plan) return general(documents, projection);
  // `{ _id: 0 }` alone excludes `_id` and keeps every other field (it is no inclusion).
  if (plan.fields.size === 0 && !plan.keepId) {
    return documents.map((document) =>
      Object.fromEntries(Object.entries(document).filter(([key]) => key !== '_id')),
    );
  }
  return documents.map((document) => {
    const projected = include(document, plan.fields, plan.keepId);
    return projected === GENERAL ? (general([document], projection)[0] as Document) : projected;
  });
}

function general(documents: Document[], projection: Document): Document[] {
  return queryOf({}).find(documents, projection).all() as Document[];
}
