import { describe, expect, it } from '@jest/globals';
import { buildSchema, type GraphQLError, parse, validate } from 'graphql';
import { DEFAULT_QUERY_LIMITS, queryLimitRules, validatedSubscription } from './query-limits.js';

const schema = buildSchema(`
  type Speaker { name: String, model: String }
  type Debate { id: String, topic: String, model1: Speaker, model2: Speaker, related: [Debate] }
  type Query { catalog: [String], debate(id: String): Debate }
`);

function check(query: string, limits = DEFAULT_QUERY_LIMITS) {
  return validate(schema, parse(query), queryLimitRules(limits)).map((error) => ({
    message: error.message,
    extensions: error.extensions,
  }));
}

describe('queryLimitRules', () => {
  it('lets an ordinary operation through', () => {
    expect(
      check('{ catalog debate(id: "a") { id topic model1 { name model } model2 { name } } }'),
    ).toEqual([]);
  });

  it('refuses a thousand aliases, naming the limit', () => {
    const aliases = Array.from({ length: 1_000 }, (_, i) => `a${i}: catalog`).join(' ');
    expect(check(`{ ${aliases} }`)).toContainEqual({
      message: 'Aliases limit of 15 exceeded, found 1000.',
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxAliases', max: 15 },
    });
  });

  it('refuses a selection nested too deep', () => {
    const deep = `{ debate(id: "a") { ${'related { '.repeat(10)}id${' }'.repeat(10)} } }`;
    expect(check(deep)).toContainEqual(
      expect.objectContaining({
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxDepth', max: 8 },
      }),
    );
  });

  it('counts the fields inside fragments, not the spreads', () => {
    // { debate { related { related … { id } } } } with a named fragment at each `related`.
    const throughFragments = (levels: number) =>
      [
        '{ debate(id: "a") { ...F1 } }',
        ...Array.from(
          { length: levels },
          (_, i) =>
            `fragment F${i + 1} on Debate { related { ${i + 1 < levels ? `...F${i + 2}` : 'id'} } }`,
        ),
      ].join('\n');
    // Only the depth is looked at: so many nested objects are over the default cost.
    const limits = { ...DEFAULT_QUERY_LIMITS, maxCost: 1_000_000 };
    expect(check(throughFragments(6), limits)).toEqual([]);
    expect(check(throughFragments(7), limits)).toEqual([
      {
        message: 'Query depth limit of 8 exceeded, found 9.',
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxDepth', max: 8 },
      },
    ]);
  });

  it('refuses an operation whose cost is over the limit', () => {
    const limits = { ...DEFAULT_QUERY_LIMITS, maxCost: 100 };
    const query = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `d${i}: debate(id: "${i}") { related { related { id topic } } }`).join(' ')} }`;
    // Each costs 2 + 1.5 × (2 + 1.5 × (2 + 1.5 × 2)) = 16.25.
    expect(check(query(6), limits)).toEqual([]);
    expect(check(query(7), limits)).toEqual([
      {
        message: 'Query Cost limit of 100 exceeded, found 113.75.',
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxCost', max: 100 },
      },
    ]);
  });

  it('refuses a pile of directives', () => {
    const directives = Array.from({ length: 30 }, () => '@include(if: true)').join(' ');
    expect(check(`{ catalog ${directives} }`)).toContainEqual(
      expect.objectContaining({
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxDirectives', max: 20 },
      }),
    );
  });
});

describe(validatedSubscription.name, () => {
  const subscriptions = buildSchema(`
    type Event { type: String, text: String }
    type Query { ok: String }
    type Subscription { debateRun(id: String!): Event }
  `);
  const sut = validatedSubscription(queryLimitRules(DEFAULT_QUERY_LIMITS));
  const refusal = (query: string) => {
    try {
      sut(subscriptions, parse(query));
      return 'accepted';
    } catch (error) {
      const { message, extensions } = error as GraphQLError;
      return { message, extensions };
    }
  };

  it('accepts a subscription within the limits', () => {
    expect(refusal('subscription { debateRun(id: "r") { type text } }')).toBe('accepted');
  });

  it('refuses one over a limit with the error the HTTP path answers', () => {
    const aliases = Array.from({ length: 1_000 }, (_, i) => `t${i}: text`).join(' ');
    expect(refusal(`subscription { debateRun(id: "r") { ${aliases} } }`)).toEqual(
      check(`{ ${Array.from({ length: 1_000 }, (_, i) => `a${i}: catalog`).join(' ')} }`)[0],
    );
  });

  it('checks the query as text (preSubscriptionParsing) as it does the document', () => {
    const aliases = Array.from({ length: 1_000 }, (_, i) => `t${i}: text`).join(' ');
    expect(() => sut(subscriptions, `subscription { debateRun(id: "r") { ${aliases} } }`)).toThrow(
      'Aliases limit of 15 exceeded, found 1000.',
    );
    expect(() => sut(subscriptions, 'subscription { debateRun(id: "r") { type } }')).not.toThrow();
  });

  it("refuses one GraphQL's own rules refuse", () => {
    expect(refusal('subscription { debateRun(id: "r") { speech } }')).toEqual({
      message: 'Cannot query field "speech" on type "Event".',
      extensions: {},
    });
  });
});
