import { NO_SUCH_RUN } from '@debate/contracts';
import { GraphQLError } from 'graphql';
import type { z } from 'zod';

/** The client sent something the operation cannot take; the message says what. */
export function badInput(message: string, field?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', ...(field ? { field } : {}) },
  });
}

/** What a client reads when its input fails a schema: by default the first issue's message. */
export type InputMessage = string | ((issue: z.core.$ZodIssue) => string);

/**
 * The one way an operation's arguments are checked: `value` as `schema` takes it, or a
 * BAD_USER_INPUT error naming the first thing wrong (and, when it is one, the field). Every
 * resolver validates its input with this, mostly against the contract of the request it is
 * about to send, so that a mistake of the client's is the client's error, not a
 * ContractViolation of the gateway's.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  message?: InputMessage,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A failed parse has an issue at least.
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const text = typeof message === 'string' ? message : message ? message(issue) : issue.message;
  throw badInput(text, issue.path.join('.'));
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

/** A run that is not the caller's, or none at all: the same answer, so an id reveals nothing. */
export function noSuchRun(): GraphQLError {
  return new GraphQLError(NO_SUCH_RUN, { extensions: { code: 'NOT_FOUND' } });
}
