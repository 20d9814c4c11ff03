import { afterEach, describe, expect, it } from '@jest/globals';
import { type OperationsServer, startOperationsServer } from './operations-server.js';
import { reportDegradations } from './degradations.js';

describe(startOperationsServer.name, () => {
  let sut: OperationsServer | undefined;

  afterEach(async () => {
    await sut?.close();
    sut = undefined;
  });

  it('is live at once, and ready only when every check answers', async () => {
    let storeUp = false;
    sut = await startOperationsServer({
      port: 0,
      host: '127.0.0.1',
      checkTimeoutMs: 200,
      checks: {
        nats: async () => true,
        store: async () => (storeUp ? true : 'the store refused the connection'),
      },
    });
    const live = await fetch(`${sut.url}/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);

    const notReady = await fetch(`${sut.url}/health/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'unavailable',
      checks: { nats: 'ok', store: 'the store refused the connection' },
    });

    storeUp = true;
    const ready = await fetch(`${sut.url}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: 'ok', checks: { nats: 'ok', store: 'ok' } },
    ]);
  });

  it('stays ready while something is degraded, and names it', async () => {
    sut = await startOperationsServer({
      port: 0,
      host: '127.0.0.1',
      checks: { nats: async () => true },
    });
    let failing: string[] = ['local-llama'];
    const stop = reportDegradations('models', () => failing);
    try {
      const degraded = await fetch(`${sut.url}/health/ready`);
      expect([degraded.status, await degraded.json()]).toEqual([
        200,
        { status: 'degraded', checks: { nats: 'ok' }, degraded: { models: ['local-llama'] } },
      ]);
      failing = [];
      const recovered = await fetch(`${sut.url}/health/ready`);
      expect(await recovered.json()).toEqual({ status: 'ok', checks: { nats: 'ok' } });
    } finally {
      stop();
    }
  });

  it('fails a check that throws or does not answer in time', async () => {
    sut = await startOperationsServer({
      port: 0,
      host: '127.0.0.1',
      checkTimeoutMs: 100,
      checks: {
        nats: () => new Promise(() => undefined),
        store: async () => {
          throw new Error('boom');
        },
      },
    });
    const started = Date.now();
    const response = await fetch(`${sut.url}/health/ready`);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await response.json()).toEqual({
      status: 'unavailable',
      checks: { nats: 'no answer within 100 ms', store: 'boom' },
    });
  });

  it('serves Prometheus metrics, and nothing else', async () => {
    sut = await startOperationsServer({ port: 0, host: '127.0.0.1', checks: {} });
    const metrics = await fetch(`${sut.url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toMatch(/^process_resident_memory_bytes \d+/m);
    expect((await fetch(`${sut.url}/graphql`)).status).toBe(404);
    expect((await fetch(`${sut.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});
