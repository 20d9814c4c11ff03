import { GraphQLError } from 'graphql';

/** The client sent something the operation cannot take; the message says what. */
export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * The deployment asks for a verified address before the free debates, and the user's is not:
 * the engine shows this with a button that sends the mail again.
 */
export function emailNotVerified(email: string): GraphQLError {
  return new GraphQLError(
    `Verify your e-mail address to start a debate: follow the link in the mail we sent to ${email}.`,
    { extensions: { code: 'EMAIL_NOT_VERIFIED' } },
  );
}

/**
 * The debate does not exist, or is not the caller's to see: the same answer for both, so an
 * id tells nobody whether someone else's private debate exists.
 */
export function debateNotFound(): GraphQLError {
  return new GraphQLError('Debate not found.', { extensions: { code: 'NOT_FOUND' } });
}
