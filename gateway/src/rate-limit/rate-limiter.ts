import { natsConnectionOptions, type TransportConfig } from '@debate/nest';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { createHmac, randomBytes } from 'node:crypto';
import {
  RateLimiterMemory,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import { RateLimiterNatsKv, withinTimeout } from './nats-kv-rate-limiter.js';
import {
  LONGEST_PERIOD_SECONDS,
  rateLimitBuckets,
  type RateLimitedAction,
  type RateLimitRule,
  type RateLimits,
  RateLimitScope,
} from '@debate/contracts';

/** The bucket every gateway replica counts in. */
export const RATE_LIMIT_BUCKET = rateLimitBuckets.counters;
/** The bucket of the key the counters' names are made with (kept for good: no TTL). */
export const RATE_LIMIT_KEY_BUCKET = rateLimitBuckets.key;

/**
 * Who is asking: the client's address, and the account when the operation names one (a
 * WebSocket connection counts its address at the upgrade and its account at connection_init).
 */
export interface RateLimitSubject {
  readonly address?: string | undefined;
  readonly account?: string | undefined;
}

/** Over a limit: which one, and how long until the caller may try again. */
export class RateLimitedError extends Error {
  constructor(
    readonly action: RateLimitedAction,
    readonly scope: RateLimitScope,
    readonly retryAfterSeconds: number,
  ) {
    super(`${action} over its ${scope} limit; retry after ${retryAfterSeconds} s`);
    this.name = 'RateLimitedError';
  }
}

/**
 * A counter's name for an address or e-mail: an HMAC with the deployment's key, so that the
 * bucket holds neither, nor a plain hash anyone could compute for every IPv4 address.
 */
function digest(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url').slice(0, 24);
}

/**
 * Who a client address stands for: an IPv4 address itself (an IPv4-mapped IPv6 one too), an
 * IPv6 address its /64, the smallest block a host is given: one host has 2^64 addresses of its
 * own, and would otherwise have as many allowances.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}

type Limiters = ReadonlyMap<string, RateLimiterAbstract>;

/**
 * The gateway's rate limits. Over NATS, the counters live in a JetStream key-value bucket every
 * replica shares; should the bucket not answer, each replica goes on counting in its own memory
 * (rate-limiter-flexible's insurance limiter) rather than failing the request. In one process
 * (`npm start`) there is one gateway, and its memory is the shared store.
 */
export class RateLimiter implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimiter');
  private readonly limiters: Limiters;
  private connection: Promise<NatsConnection> | undefined;
  private bucket: Promise<KV> | undefined;
  /** This process's key: the deployment's in one process, and while the broker is away. */
  private readonly localKey = randomBytes(32);
  private sharedKey: Promise<Buffer> | undefined;

  constructor(
    private readonly limits: RateLimits | 'off',
    private readonly transport: TransportConfig,
  ) {
    this.limiters = this.build();
  }

  private build(): Limiters {
    const limiters = new Map<string, RateLimiterAbstract>();
    if (this.limits === 'off') return limiters;
    for (const [action, rules] of Object.entries(this.limits)) {
      for (const scope of RateLimitScope.options) {
        const rule = rules[scope];
        if (rule) limiters.set(`${action}.${scope}`, this.limiterFor(`${action}.${scope}`, rule));
      }
    }
    return limiters;
  }

  private limiterFor(keyPrefix: string, rule: RateLimitRule): RateLimiterAbstract {
    const options = { keyPrefix, points: rule.points, duration: rule.seconds };
    if (this.transport.kind !== 'nats') return new RateLimiterMemory(options);
    const limiter: RateLimiterStoreAbstract = new RateLimiterNatsKv(() => this.openBucket(), {
      ...options,
      // A key over its limit is refused from memory until its window ends: a flood costs the
      // bucket one write per key and window, not one per request.
      inMemoryBlockOnConsumed: rule.points + 1,
      insuranceLimiter: new RateLimiterMemory(options),
    });
    return limiter;
  }

  /** A bucket of the broker's, made when missing (`ttl` in ms, 0: entries are kept). */
  private async openKv(name: string, ttl: number): Promise<KV> {
    if (this.transport.kind !== 'nats') throw new Error('No bucket on the in-process transport');
    const { jetstreamReplicas } = this.transport;
    // Unlike the services' connections, this one fails at once while the broker is away: the
    // limits then count in memory, and the next request tries the broker again.
    this.connection ??= connect({
      ...natsConnectionOptions(this.transport, 'gateway', 'gateway-rate-limits'),
      waitOnFirstConnect: false,
    });
    const connection = this.connection;
    connection.catch(() => {
      if (this.connection === connection) this.connection = undefined;
    });
    const kvm = new Kvm(await connection);
    try {
      return await kvm.create(name, {
        history: 1,
        ttl,
        ...(jetstreamReplicas ? { replicas: jetstreamReplicas } : {}),
      });
    } catch (error) {
      // Made by another replica with other settings (a replica count): use it as it is.
      this.logger.warn(`Opening the ${name} bucket as it is: ${String(error)}`);
      return kvm.open(name);
    }
  }

  private openBucket(): Promise<KV> {
    this.bucket ??= this.openKv(RATE_LIMIT_BUCKET, LONGEST_PERIOD_SECONDS * 1000);
    this.bucket.catch(() => {
      this.bucket = undefined;
    });
    return this.bucket;
  }

  /**
   * The deployment's key for the counters' names: made by the first replica that needs it and
   * read by the others, so that every replica names a client's counter alike. While the broker
   * is away, this process's own (its counting is then in memory anyway).
   */
  private async key(): Promise<Buffer> {
    if (this.transport.kind !== 'nats') return this.localKey;
    this.sharedKey ??= withinTimeout(
      (async () => {
        const bucket = await this.openKv(RATE_LIMIT_KEY_BUCKET, 0);
        try {
          await bucket.create('key', this.localKey);
          return this.localKey;
        } catch {
          // Another replica made it first.
          const entry = await bucket.get('key');
          if (!entry || entry.value.length < 32) throw new Error('The rate-limit key is missing');
          return Buffer.from(entry.value);
        }
      })(),
    );
    try {
      return await this.sharedKey;
    } catch {
      this.sharedKey = undefined;
      return this.localKey;
    }
  }

  /**
   * Counts one `action` against its address and account limits and, when both let it through,
   * against the deployment's ceiling; throws RateLimitedError (the longest wait) when one is
   * over. A request refused for its address or account takes nothing from the ceiling, so one
   * flooding client cannot use up everybody's share.
   */
  async consume(action: RateLimitedAction, subject: RateLimitSubject): Promise<void> {
    const { address } = subject;
    const own = await Promise.all([
      address === undefined
        ? undefined
        : this.take(action, 'address', (key) => digest(key, clientOf(address))),
      subject.account
        ? this.take(action, 'account', (key) => digest(key, subject.account ?? ''))
        : undefined,
    ]);
    const refusal = own
      .filter((outcome): outcome is RateLimitedError => outcome !== undefined)
      .sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
    if (refusal) throw refusal;
    const ceiling = await this.take(action, 'global', () => 'all');
    if (ceiling) throw ceiling;
  }

  /**
   * Gives the account's point back: a sign-in that succeeded was its owner, and only failures
   * should count against an account (anyone can type its address).
   */
  async forgive(action: RateLimitedAction, account: string): Promise<void> {
    const limiter = this.limiters.get(`${action}.account`);
    if (!limiter) return;
    await limiter.reward(digest(await this.key(), account)).catch(() => undefined);
  }

  /**
   * One point of `scope`'s limit for the counter `name` gives (from the deployment key, read
   * only when there is a limit to count): undefined when granted (or not limited).
   */
  private async take(
    action: RateLimitedAction,
    scope: RateLimitScope,
    name: (key: Buffer) => string,
  ): Promise<RateLimitedError | undefined> {
    const limiter = this.limiters.get(`${action}.${scope}`);
    if (!limiter) return undefined;
    try {
      await limiter.consume(name(await this.key()));
      return undefined;
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      return new RateLimitedError(
        action,
        scope,
        Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.bucket = undefined;
    if (!connection) return;
    // A connection still waiting for its broker is closed once it connects, not waited for.
    const connected = await Promise.race([connection, Promise.resolve(undefined)]);
    if (connected) {
      // Drain (its last writes go out), at most 2 s: a broker that is away is not waited for.
      const drained = connected.drain().catch(() => undefined);
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      if (!connected.isClosed()) await connected.close();
    } else void connection.then((late) => late.close());
  }
}
