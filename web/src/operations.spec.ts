/**
 * @jest-environment node
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { describe, expect, it } from '@jest/globals';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as generated from './gql/graphql';

// The gateway's limits as shipped (DEFAULT_QUERY_LIMITS in gateway/src/query-limits): an
// operation over one is refused as a whole before any resolver runs, so the page that sends it
// shows nothing. (The web may not import the gateway; change these with it.)
const GATEWAY_MAX_DEPTH = 8;
const GATEWAY_MAX_COST = 5_000;

const schema = buildSchema(
  readFileSync(fileURLToPath(new URL('../../gateway/schema.graphql', import.meta.url)), 'utf8'),
);

/** Every operation the app sends, as it sends it (its fragments appended). */
const operations = Object.entries(generated)
  .filter(
    ([name, value]) => name.endsWith('Document') && value instanceof generated.TypedDocumentString,
  )
  .map(([name, value]) => [name, String(value)] as const);

describe('the app’s operations', () => {
  it('are all found', () => {
    expect(operations.map(([name]) => name)).toEqual(
      expect.arrayContaining(['MyDebateDocument', 'CommunityDebateDocument', 'DebateRunDocument']),
    );
  });

  it.each(operations)('%s is valid and within the gateway’s depth and cost limits', (_, text) => {
    const errors = validate(schema, parse(text), [
      ...specifiedRules,
      maxDepthRule({
        n: GATEWAY_MAX_DEPTH,
        // As the gateway counts: fields, a fragment's where it is spread, not the spread.
        flattenFragments: true,
        exposeLimits: true,
        propagateOnRejection: true,
      }),
      costLimitRule({ maxCost: GATEWAY_MAX_COST, exposeLimits: true, propagateOnRejection: true }),
    ]);
    expect(errors.map((error) => error.message)).toEqual([]);
  });
});
