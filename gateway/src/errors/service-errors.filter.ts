import { ServiceError, ServiceUnavailableError } from '@debate/nest';
import { ContractViolation } from '@debate/contracts';
import { type ArgumentsHost, Catch, HttpException, Logger } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { badInput } from './graphql-errors.js';

/**
 * What a client reads when a service is down or does not answer in time (no text of the
 * product's says it): the service's name is in `extensions.service`, the subject and the
 * transport's words only in the log.
 */
const SERVICE_UNAVAILABLE_MESSAGE = 'The service is unavailable';

/** What a client reads when a service answered with an error of its own (logged in full). */
const SERVICE_ERROR_MESSAGE = 'The service could not answer the request';

const logger = new Logger('GraphQL');

/**
 * Turns what went wrong behind the gateway into a GraphQL error a client can act on:
 * SERVICE_UNAVAILABLE (try again later), SERVICE_ERROR, UNAUTHENTICATED / FORBIDDEN,
 * BAD_USER_INPUT, and INTERNAL_SERVER_ERROR for the rest. A client never reads a NATS subject,
 * a contract's field path or a service's own error text: those stay in the log.
 */
export function clientError(exception: unknown): GraphQLError {
  if (exception instanceof GraphQLError) return exception;
  if (exception instanceof ServiceUnavailableError) {
    logger.warn(exception.message);
    return new GraphQLError(SERVICE_UNAVAILABLE_MESSAGE, {
      extensions: { code: 'SERVICE_UNAVAILABLE', service: exception.service },
    });
  }
  if (exception instanceof ServiceError) {
    logger.error(
      `The ${exception.service} service answered ${exception.subject} with an error: ${exception.message}`,
    );
    return new GraphQLError(SERVICE_ERROR_MESSAGE, {
      extensions: { code: 'SERVICE_ERROR', service: exception.service },
    });
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 401) {
      return new GraphQLError(exception.message, { extensions: { code: 'UNAUTHENTICATED' } });
    }
    if (status === 403) {
      return new GraphQLError(exception.message, { extensions: { code: 'FORBIDDEN' } });
    }
    // Another refusal of NestJS's (a pipe's 400): the client's input, said as every resolver
    // says it.
    if (status < 500) return badInput(exception.message);
  }
  const detail = exception instanceof ContractViolation ? exception.message : String(exception);
  logger.error(detail, exception instanceof Error ? exception.stack : undefined);
  return new GraphQLError('Internal server error', {
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}

/** Every resolver's errors, as clientError says them. */
@Catch()
export class ServiceErrorsFilter implements GqlExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType<string>() !== 'graphql') throw exception;
    return clientError(exception);
  }
}
