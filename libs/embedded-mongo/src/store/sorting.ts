import type { Document } from 'bson';
import type { Collation } from './collation.js';
import { compareValues, getPath } from './values.js';

export type SortSpec = Readonly<Record<string, 1 | -1>>;

/**
 * The order `sort` puts documents in, as MongoDB sorts: by each field in turn, an array by its
 * least element ascending and its greatest descending; strings by `collation`'s rules when there
 * is one (a find's, or an aggregate's `$sort`).
 */
export function compareBySort(
  sort: SortSpec,
  collation?: Collation,
): (a: Document, b: Document) => number {
  const entries = Object.entries(sort);
  const compare = collation ? collation.compare.bind(collation) : compareValues;
  const sortValue = (document: Document, field: string, direction: 1 | -1): unknown => {
    const value = getPath(document, field);
    if (!Array.isArray(value)) return value ?? null;
    if (value.length === 0) return undefined;
    return value.reduce((best: unknown, item: unknown) =>
      compare(item, best) * direction < 0 ? item : best,
    );
  };
  return (a, b) => {
    for (const [field, direction] of entries) {
      const order = compare(sortValue(a, field, direction), sortValue(b, field, direction));
      if (order !== 0) return order * direction;
    }
    return 0;
  };
}

/** `documents` in `sort`'s order; equal ones keep their order (a stable sort). */
export function sortedBy(
  documents: readonly Document[],
  sort: SortSpec,
  collation?: Collation,
): Document[] {
  const compare = compareBySort(sort, collation);
  return documents
    .map((document, position) => ({ document, position }))
    .sort((a, b) => compare(a.document, b.document) || a.position - b.position)
    .map(({ document }) => document);
}
