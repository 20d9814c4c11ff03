import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { Context, evalExpr } from 'mingo/core';
import { Lazy, type Iterator as LazyIterator } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { Query } from 'mingo/query';
import type { AnyObject, CollectionResolver, Options } from 'mingo/types';
import { update as applyOperators } from 'mingo/updater';
import { ensureArray, flatten, isRegExp, resolve, typeOf } from 'mingo/util';
import { CommandError } from '../errors.js';
import type { Collation } from './collation.js';
import { type SortSpec, sortedBy } from './sorting.js';
import { jsonSchemaValidator } from './json-schema.js';

/** What a command's reads are evaluated with: its `let` variables and its collation. */
export interface MatchOptions {
  readonly variables?: Document;
  readonly collation?: Collation;
}

const OPERATORS = {
  accumulator: accumulatorOperators,
  expression: expressionOperators,
  pipeline: pipelineOperators,
  projection: projectionOperators,
  query: queryOperators,
  window: windowOperators,
};

const SIMPLE = Context.init(OPERATORS);

type FieldTest = (value: unknown, wanted: unknown, depth: number) => boolean;

/** A query operator testing a field's value (arrays' elements too), as mingo's own do. */
function fieldOperator(test: FieldTest) {
  return (selector: string, wanted: unknown) => {
    const depth = selector.split('.').length - 1;
    return (document: AnyObject) =>
      test(resolve(document, selector, { unwrapArray: true }), wanted, depth);
  };
}

/** An expression operator comparing its two arguments. */
function comparisonExpression<T>(test: (order: number) => T, collation: Collation) {
  return (document: AnyObject, expression: unknown, options: Options) => {
    if (!Array.isArray(expression) || expression.length !== 2) {
      throw new CommandError('BadValue', 'Expression takes exactly 2 arguments.');
    }
    const [a, b] = evalExpr(document, expression, options) as [unknown, unknown];
    return test(collation.compare(a, b));
  };
}

/**
 * mingo's operators with every string comparison a collation touches (equality, ranges, $in,
 * $all, the expressions $eq…$cmp and $in, and the $sort stage) made through it, as MongoDB
 * applies a command's collation to its query, expressions and sorts. (What else compares is
 * refused under a collation: commands/unsupported.ts.)
 */
function collatedContext(collation: Collation): Context {
  const equal: FieldTest = (value, wanted, depth) => {
    if (collation.equals(value, wanted)) return true;
    if ((value === null || value === undefined) && (wanted === null || wanted === undefined))
      return true;
    if (!Array.isArray(value)) return false;
    return (
      value.some((item) => collation.equals(item, wanted)) ||
      flatten(value, depth).some((item) => collation.equals(item, wanted))
    );
  };
  const within: FieldTest = (value, wanted) => {
    const list = wanted as unknown[];
    if (value === null || value === undefined) return list.some((item) => item === null);
    const values = Array.isArray(value) ? [value, ...value] : [value];
    return values.some((item) =>
      list.some((candidate) =>
        isRegExp(candidate)
          ? typeof item === 'string' && candidate.test(item)
          : collation.equals(item, candidate),
      ),
    );
  };
  const range =
    (test: (order: number) => boolean): FieldTest =>
    (value, wanted) =>
      ensureArray(value).some(
        // Values of one type only, as mingo's own range operators bracket them.
        (item) => typeOf(item) === typeOf(wanted) && test(collation.compare(item, wanted)),
      );
  const all: FieldTest = (value, wanted) => {
    if (!Array.isArray(value) || !Array.isArray(wanted)) return false;
    if (value.length === 0 || wanted.length === 0) return false;
    return wanted.every((item) => value.some((element) => collation.equals(element, item)));
  };
  const operators = {
    ...OPERATORS,
    pipeline: {
      ...pipelineOperators,
      $sort: (collection: LazyIterator, sort: SortSpec) =>
        collection.transform((documents) =>
          Lazy(sortedBy(documents as Document[], sort, collation)),
        ),
    },
    query: {
      ...queryOperators,
      $all: (selector: string, wanted: unknown) => {
        const items = Array.isArray(wanted) ? (wanted as unknown[]) : [];
        if (
          items.some((item) => item !== null && typeof item === 'object' && '$elemMatch' in item)
        ) {
          throw new CommandError(
            'NotImplemented',
            "the embedded store does not support '$all' with '$elemMatch' under a collation",
          );
        }
        return fieldOperator(all)(selector, wanted);
      },
      $eq: fieldOperator(equal),
      $ne: fieldOperator((value, wanted, depth) => !equal(value, wanted, depth)),
      $in: fieldOperator(within),
      $nin: fieldOperator((value, wanted, depth) => !within(value, wanted, depth)),
      $gt: fieldOperator(range((order) => order > 0)),
      $gte: fieldOperator(range((order) => order >= 0)),
      $lt: fieldOperator(range((order) => order < 0)),
      $lte: fieldOperator(range((order) => order <= 0)),
    },
    expression: {
      ...expressionOperators,
      $eq: comparisonExpression((order) => order === 0, collation),
      $ne: comparisonExpression((order) => order !== 0, collation),
      $gt: comparisonExpression((order) => order > 0, collation),
      $gte: comparisonExpression((order) => order >= 0, collation),
      $lt: comparisonExpression((order) => order < 0, collation),
      $lte: comparisonExpression((order) => order <= 0, collation),
      $cmp: comparisonExpression((order) => order, collation),
      $in: (document: AnyObject, expression: unknown, options: Options) => {
        const [item, list] = evalExpr(document, expression, options) as [unknown, unknown];
        if (!Array.isArray(list)) throw new CommandError('BadValue', '$in requires an array');
        return list.some((candidate) => collation.equals(candidate, item));
      },
    },
  };
  // mingo types each operator table as the intersection of its operators' signatures.
  return Context.init(operators as unknown as Parameters<typeof Context.init>[0]);
}

const contexts = new WeakMap<Collation, Context>();

function contextOf(collation: Collation | undefined): Context {
  if (!collation) return SIMPLE;
  let context = contexts.get(collation);
  if (!context) {
    context = collatedContext(collation);
    contexts.set(collation, context);
  }
  return context;
}

/**
 * The options mingo evaluates with, for `options` (a collation is in the context's operators).
 * A `let` variable's value is an expression, evaluated once as MongoDB does (`{ $literal: x }`
 * is x, `{ $add: [1, 2] }` is 3): mingo would hand `$$name` the expression itself.
 */
function mingoOptions(options: MatchOptions): Partial<Options> {
  const context = contextOf(options.collation);
  return {
    context,
    jsonSchemaValidator,
    ...(options.variables
      ? {
          variables: Object.fromEntries(
            Object.entries(options.variables).map(([name, value]) => [
              name,
              evalExpr({}, value, { context } as Options),
            ]),
          ),
        }
      : {}),
  };
}

/** A filter's test. */
export function queryOf(filter: Document, options: MatchOptions = {}): Query {
  return new Query(filter, mingoOptions(options));
}

/** An aggregation pipeline, reading other collections through `resolver` ($lookup). */
export function aggregatorOf(
  stages: Document[],
  options: MatchOptions & { readonly resolver?: CollectionResolver } = {},
): Aggregator {
  return new Aggregator(stages, {
    ...mingoOptions(options),
    ...(options.resolver ? { collectionResolver: options.resolver } : {}),
  });
}

/** Applies update operators to `document` in place; `filter` resolves the positional `$`. */
export function applyUpdateOperators(
  document: Document,
  operators: Document,
  arrayFilters: Document[] | undefined,
  filter: Document | undefined,
  options: MatchOptions = {},
): void {
  applyOperators(document, operators, arrayFilters, filter, {
    queryOptions: mingoOptions(options),
  });
}
