import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** How much one GraphQL operation may ask for (GRAPHQL_MAX_* in the gateway's environment). */
export interface QueryLimits {
  /** Aliased fields in one operation (a thousand aliases were a thousand service calls). */
  readonly maxAliases: number;
  /** Nesting depth of the selection, in fields: a fragment spread adds none of its own. */
  readonly maxDepth: number;
  /** graphql-armor's cost: 2 an object, 1 a scalar, times 1.5 per level of depth. */
  readonly maxCost: number;
  readonly maxDirectives: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxAliases: 15,
  maxDepth: 8,
  maxCost: 5_000,
  maxDirectives: 20,
};

/**
 * graphql-armor's validation rules, which run before any resolver does: an operation over a
 * limit is refused as a whole with QUERY_TOO_COMPLEX, naming the limit and what it found.
 * (Their own errors carry no code and read "Syntax Error: …"; the rejection is reported here.)
 */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  const reject = (limit: keyof QueryLimits) => ({
    propagateOnRejection: false,
    exposeLimits: true,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        context?.reportError(
          new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
            extensions: { code: 'QUERY_TOO_COMPLEX', limit, max: limits[limit] },
          }),
        );
      },
    ],
  });
  return [
    maxAliasesRule({ n: limits.maxAliases, ...reject('maxAliases') }),
    // Fields are counted through fragments, as if written out: left to count a spread as a
    // level, the rule pushed the web app to write a shared selection out each time.
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ...reject('maxDepth') }),
    costLimitRule({ maxCost: limits.maxCost, ...reject('maxCost') }),
    maxDirectivesRule({ n: limits.maxDirectives, ...reject('maxDirectives') }),
  ];
}

/**
 * The same rules for a subscription, which Mercurius's WebSocket path parses and subscribes
 * without validating (its `validationRules` serve HTTP only): run as its preSubscriptionParsing
 * hook (the query's text) and preSubscriptionExecution hook (its document), this validates it as
 * the HTTP path does (GraphQL's own rules, then `rules`) before anything is subscribed, and
 * refuses it with the first error (the protocol's `error` message carries one):
 * QUERY_TOO_COMPLEX for an operation over a limit.
 */
export function validatedSubscription(
  rules: readonly ValidationRule[],
): (schema: GraphQLSchema, query: DocumentNode | string) => void {
  const all = [...specifiedRules, ...rules];
  return (schema, query) => {
    const [error] = validate(schema, typeof query === 'string' ? parse(query) : query, all);
    if (error) throw error;
  };
}

/**
 * Mercurius's subscription hooks that validate: the query's text before Mercurius files the
 * subscription under its id (it does so before preSubscriptionExecution, so a refusal there
 * would stay filed until the socket closed), and the document again before execution, for a
 * query sent as a parsed document (which skips preSubscriptionParsing; the WebSocket server
 * closes such a socket, 4400).
 */
export function subscriptionValidationHooks(rules: readonly ValidationRule[]): {
  preSubscriptionParsing: (schema: GraphQLSchema, source: string) => void;
  preSubscriptionExecution: (schema: GraphQLSchema, document: DocumentNode) => void;
} {
  const validated = validatedSubscription(rules);
  return { preSubscriptionParsing: validated, preSubscriptionExecution: validated };
}
