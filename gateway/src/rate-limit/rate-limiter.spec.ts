import { inProcessTransport, natsTransport } from '@debate/nest';
import { type RunningNats, startNatsServer } from '@debate/nest/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import {
  clientOf,
  RATE_LIMIT_BUCKET,
  RATE_LIMIT_KEY_BUCKET,
  RateLimitedError,
  RateLimiter,
} from './rate-limiter.js';
import { defaultRateLimits, type RateLimits } from '@debate/contracts';

const limits: RateLimits = {
  ...defaultRateLimits(),
  signUp: { address: { points: 5, seconds: 3_600 }, global: { points: 8, seconds: 60 } },
  signIn: { address: { points: 2, seconds: 1 }, account: { points: 2, seconds: 60 } },
  startDebate: { account: { points: 5, seconds: 60 } },
};

/** Each consume's outcome: granted, or the RateLimitedError it threw. */
async function outcomes(calls: Array<Promise<void>>): Promise<Array<true | RateLimitedError>> {
  return Promise.all(
    calls.map((call) =>
      call.then(
        () => true as const,
        (error: unknown) => {
          if (error instanceof RateLimitedError) return error;
          throw error;
        },
      ),
    ),
  );
}

describe('RateLimiter over NATS (two gateway replicas)', () => {
  let nats: RunningNats;
  let first: RateLimiter;
  let second: RateLimiter;

  beforeAll(async () => {
    nats = await startNatsServer();
    first = new RateLimiter(limits, natsTransport(nats.url));
    second = new RateLimiter(limits, natsTransport(nats.url));
  });

  afterAll(async () => {
    await first?.onModuleDestroy();
    await second?.onModuleDestroy();
    await nats?.stop();
  });

  it('counts one address in the bucket both share: a burst of 100 gets exactly 5 through', async () => {
    const results = await outcomes(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? first : second).consume('signUp', { address: '198.51.100.7' }),
      ),
    );
    expect(results.filter((result) => result === true)).toHaveLength(5);
    const refused = results.filter((result) => result !== true);
    expect(refused).toHaveLength(95);
    for (const refusal of refused) {
      expect(refusal).toMatchObject({ action: 'signUp', scope: 'address' });
      expect(refusal.retryAfterSeconds).toBeGreaterThan(3_500);
      expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(3_600);
    }
  });

  it('names the counters with the deployment key, not the address or its plain hash', async () => {
    const nc = await connect({ servers: [nats.url] });
    try {
      const kvm = new Kvm(nc);
      const keys: string[] = [];
      for await (const key of await (await kvm.open(RATE_LIMIT_BUCKET)).keys()) keys.push(key);
      expect(keys.some((key) => key.startsWith('signUp.address.'))).toBe(true);
      const plain = createHash('sha256').update('198.51.100.7').digest('base64url').slice(0, 24);
      const dotted = plain.replace(/[^-/_=.a-zA-Z0-9]/g, '.');
      expect(keys.filter((key) => key.includes('198.51.100.7') || key.includes(dotted))).toEqual(
        [],
      );
      // One key for the deployment, made once: both replicas name the burst's counter alike.
      const key = await (await kvm.open(RATE_LIMIT_KEY_BUCKET)).get('key');
      expect(key?.value.length).toBe(32);
    } finally {
      await nc.close();
    }
  });

  it('keeps a ceiling for all addresses together', async () => {
    const results = await outcomes(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? first : second).consume('signUp', { address: `203.0.113.${i}` }),
      ),
    );
    // 5 of the 8 global points went to the burst above.
    expect(results.filter((result) => result === true)).toHaveLength(3);
    expect(results.find((result) => result !== true)).toMatchObject({ scope: 'global' });
  });

  it('lets the address in again once its window has passed', async () => {
    const address = { address: '192.0.2.1' };
    await first.consume('signIn', address);
    await second.consume('signIn', address);
    await expect(first.consume('signIn', address)).rejects.toBeInstanceOf(RateLimitedError);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(second.consume('signIn', address)).resolves.toBeUndefined();
  });

  it('gives an account its point back, in the bucket both share', async () => {
    const attempt = (replica: RateLimiter, i: number) =>
      replica.consume('signIn', { address: `192.0.2.${50 + i}`, account: 'ann@example.org' });
    await attempt(first, 0);
    await attempt(second, 1);
    // The second attempt succeeded: its point back, and a third is let through.
    await second.forgive('signIn', 'ann@example.org');
    await expect(attempt(first, 2)).resolves.toBeUndefined();
    await expect(attempt(second, 3)).rejects.toMatchObject({ scope: 'account' });
    // Nothing to give back to once the window has gone: no point is made up.
    await first.forgive('signIn', 'nobody@example.org');
    await attempt(first, 5).catch(() => undefined);
  });

  it('counts accounts apart from addresses', async () => {
    const results = await outcomes(
      Array.from({ length: 7 }, (_, i) =>
        first.consume('startDebate', { address: `192.0.2.${10 + i}`, account: 'user-1' }),
      ),
    );
    expect(results.filter((result) => result === true)).toHaveLength(5);
    expect(results.find((result) => result !== true)).toMatchObject({ scope: 'account' });
    await expect(
      first.consume('startDebate', { address: '192.0.2.10', account: 'user-2' }),
    ).resolves.toBeUndefined();
  });

  it('goes on limiting from memory while the broker is away, and never fails the request', async () => {
    const away = await startNatsServer();
    await away.stop();
    const alone = new RateLimiter(
      { ...limits, signUp: { address: { points: 2, seconds: 60 } } },
      natsTransport(away.url),
    );
    try {
      const results = await outcomes(
        Array.from({ length: 3 }, () => alone.consume('signUp', { address: '198.51.100.99' })),
      );
      expect(results.filter((result) => result === true)).toHaveLength(2);
    } finally {
      await alone.onModuleDestroy();
    }
  }, 30_000);
});

describe('RateLimiter with the limits off', () => {
  it('leaves the broker alone: no bucket, no key', async () => {
    const own = await startNatsServer();
    const off = new RateLimiter('off', natsTransport(own.url));
    const nc = await connect({ servers: [own.url] });
    try {
      for (let i = 0; i < 10; i += 1) await off.consume('signUp', { address: '127.0.0.1' });
      await off.forgive('signIn', 'ann@example.org');
      const buckets: string[] = [];
      for await (const status of new Kvm(nc).list()) buckets.push(status.bucket);
      expect(buckets).toEqual([]);
    } finally {
      await nc.close();
      await off.onModuleDestroy();
      await own.stop();
    }
  });
});

describe('RateLimiter in one process', () => {
  it('counts in memory, and `off` limits nothing', async () => {
    const limiter = new RateLimiter(limits, inProcessTransport());
    const results = await outcomes(
      Array.from({ length: 7 }, () => limiter.consume('signUp', { address: '127.0.0.1' })),
    );
    expect(results.filter((result) => result === true)).toHaveLength(5);
    const off = new RateLimiter('off', inProcessTransport());
    for (let i = 0; i < 50; i += 1) await off.consume('signUp', { address: '127.0.0.1' });
  });

  it("counts an account alone when there is no address (a WebSocket's connection_init)", async () => {
    const sut = new RateLimiter(
      {
        ...limits,
        openWebSocket: {
          address: { points: 1, seconds: 60 },
          account: { points: 2, seconds: 60 },
        },
      },
      inProcessTransport(),
    );
    // The upgrade took the address's only point; the account's are its own.
    await sut.consume('openWebSocket', { address: '192.0.2.1' });
    const results = await outcomes(
      [1, 2, 3].map(() => sut.consume('openWebSocket', { account: 'user-1' })),
    );
    expect(results.slice(0, 2)).toEqual([true, true]);
    expect(results[2]).toMatchObject({ action: 'openWebSocket', scope: 'account' });
  });
});

describe('clientOf', () => {
  it('counts an IPv6 host by its /64, and IPv4 (mapped or not) by the address', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientOf('2001:db8:1:2::1')).not.toBe(clientOf('2001:db8:1:3::1'));
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('203.0.113.7')).not.toBe(clientOf('203.0.113.8'));
  });
});
