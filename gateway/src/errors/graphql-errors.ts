import { GraphQLError } from 'graphql';

/** The client sent something the operation cannot take; the message says what. */
export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * The debate does not exist, or is not the caller's to see: the same answer for both, so an
 * id tells nobody whether someone else's private debate exists.
 */
export function debateNotFound(): GraphQLError {
  return new GraphQLError('Debate not found.', { extensions: { code: 'NOT_FOUND' } });
}
