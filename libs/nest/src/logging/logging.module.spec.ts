import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createLogger, type LogLevel, PinoLoggerService } from './logging.module.js';

function capture(level: pino.LevelWithSilent = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = new PinoLoggerService(pino({ level, base: { service: 'usage' } }, stream));
  return { logger, lines };
}

describe('PinoLoggerService', () => {
  it('writes one JSON line per message, labelled with the deployable and the context', async () => {
    const { logger, lines } = capture();
    logger.log('Nest microservice successfully started', 'NestMicroservice');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        service: 'usage',
        context: 'NestMicroservice',
        msg: 'Nest microservice successfully started',
      }),
    ]);
  });

  it("keeps an error's stack and context apart, as NestJS passes them", async () => {
    const { logger, lines } = capture();
    logger.error('Handler failed', 'Error: boom\n    at handler', 'ExceptionsHandler');
    logger.error(new Error('exploded'), 'RpcExceptionsHandler');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toEqual(
      expect.objectContaining({
        level: 50,
        msg: 'Handler failed',
        stack: 'Error: boom\n    at handler',
        context: 'ExceptionsHandler',
      }),
    );
    expect(lines[1]).toEqual(
      expect.objectContaining({ level: 50, msg: 'exploded', context: 'RpcExceptionsHandler' }),
    );
    expect((lines[1]?.['err'] as { message: string }).message).toBe('exploded');
  });

  it('tells NestJS the levels it writes', () => {
    const levels = (level: LogLevel) =>
      new PinoLoggerService(createLogger('usage', level)).nestLevels();
    expect(levels('info')).toEqual(['log', 'warn', 'error', 'fatal']);
    expect(levels('debug')).toEqual(['debug', 'log', 'warn', 'error', 'fatal']);
    expect(levels('trace')).toEqual(['verbose', 'debug', 'log', 'warn', 'error', 'fatal']);
    expect(levels('silent')).toEqual([]);
  });

  it('drops what is below the configured level', async () => {
    const { logger, lines } = capture('warn');
    logger.log('routine');
    logger.debug('detail');
    logger.warn('attention');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line['msg'])).toEqual(['attention']);
  });
});
