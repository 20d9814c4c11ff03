import { describe, expect, it } from '@jest/globals';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { parseInput } from './graphql-errors.js';

const Args = z.object({ search: z.string().max(3, 'Too long a search'), limit: z.number() });

/** What parseInput throws for `value`, as a client reads it. */
function refusal(...args: Parameters<typeof parseInput>): { message: string; extensions: object } {
  try {
    parseInput(...args);
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { message: error.message, extensions: error.extensions };
  }
  throw new Error('parseInput took it');
}

describe('parseInput', () => {
  it('hands out what the schema makes of a good value', () => {
    expect(parseInput(Args, { search: 'abc', limit: 2 })).toEqual({ search: 'abc', limit: 2 });
  });

  it("refuses a bad one as BAD_USER_INPUT, with the first issue's message and field", () => {
    expect(refusal(Args, { search: 'abcd', limit: 'x' })).toEqual({
      message: 'Too long a search',
      extensions: { code: 'BAD_USER_INPUT', field: 'search' },
    });
  });

  it('says what the caller words, for every issue or for each', () => {
    expect(refusal(z.string().min(1), '', 'Invalid debate id')).toEqual({
      message: 'Invalid debate id',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(
      refusal(Args, { search: 'a', limit: 'x' }, (issue) => `${issue.path.join('.')}: wrong`),
    ).toEqual({ message: 'limit: wrong', extensions: { code: 'BAD_USER_INPUT', field: 'limit' } });
  });
});
