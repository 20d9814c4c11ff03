import { ServiceError, ServiceUnavailableError } from '@debate/nest';
import { ContractViolation } from '@debate/contracts';
import { type ArgumentsHost, Catch, HttpException, Logger } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { badInput } from './graphql-errors.js';

/**
 * Turns what went wrong behind the gateway into GraphQL errors a client can act on:
 * SERVICE_UNAVAILABLE (try again later), SERVICE_ERROR, UNAUTHENTICATED / FORBIDDEN,
 * BAD_USER_INPUT, and INTERNAL_SERVER_ERROR for the rest, whose details stay in the log.
 */
@Catch()
export class ServiceErrorsFilter implements GqlExceptionFilter {
  private readonly logger = new Logger('GraphQL');

  catch(exception: unknown, host: ArgumentsHost): unknown {
    if (host.getType<string>() !== 'graphql') throw exception;
    if (exception instanceof GraphQLError) return exception;
    if (exception instanceof ServiceUnavailableError) {
      this.logger.warn(exception.message);
      return new GraphQLError(exception.message, {
        extensions: { code: 'SERVICE_UNAVAILABLE', service: exception.service },
      });
    }
    if (exception instanceof ServiceError) {
      return new GraphQLError(exception.message, {
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
    this.logger.error(detail, exception instanceof Error ? exception.stack : undefined);
    return new GraphQLError('Internal server error', {
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  }
}
