import { ContractViolation, subjects } from '@debate/contracts';
import { ServiceError, ServiceUnavailableError } from '@debate/nest';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { clientError } from './service-errors.filter.js';

const SUBJECT = subjects.usage.stats.get;

/** What a client reads of `exception`: the error's message and extensions, as JSON. */
const asClientReadsIt = (exception: unknown) => JSON.stringify(clientError(exception).toJSON());

describe(clientError.name, () => {
  const logged = (level: 'warn' | 'error') =>
    jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('tells a client the service is unavailable, naming no subject; the log keeps it', () => {
    const warn = logged('warn');
    const sut = clientError(
      new ServiceUnavailableError('usage', SUBJECT, `no responders for ${SUBJECT}`),
    );
    expect(sut.message).toBe('The service is unavailable');
    expect(sut.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', service: 'usage' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(SUBJECT));
  });

  it("keeps a service's own error, and the field paths in it, in the log", () => {
    const error = logged('error');
    const violation = new ContractViolation(SUBJECT, 'request', ['userId: Too small']);
    const answer = asClientReadsIt(new ServiceError('usage', SUBJECT, violation.message));
    expect(JSON.parse(answer)).toEqual({
      message: 'The service could not answer the request',
      extensions: { code: 'SERVICE_ERROR', service: 'usage' },
    });
    expect(answer).not.toContain(SUBJECT);
    expect(answer).not.toContain('userId');
    expect(error).toHaveBeenCalledWith(expect.stringContaining(`${SUBJECT}: userId: Too small`));
  });

  it("says no more than 'Internal server error' of the gateway's own contract violation", () => {
    const error = logged('error');
    const violation = new ContractViolation(SUBJECT, 'response', ['freeDebatesRemaining: NaN']);
    expect(JSON.parse(asClientReadsIt(violation))).toEqual({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(error).toHaveBeenCalledWith(violation.message, expect.any(String));
  });
});
