import { natsConnectionOptions, type TransportConfig } from '@debate/nest';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { createHash } from 'node:crypto';
import {
  RateLimiterMemory,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import { RateLimiterNatsKv } from './nats-kv-rate-limiter.js';
import {
  LONGEST_PERIOD_SECONDS,
  type RateLimitedAction,
  type RateLimitRule,
  type RateLimits,
  RateLimitScope,
} from '@debate/contracts';

/** The bucket every gateway replica counts in. */
export const RATE_LIMIT_BUCKET = 'rate_limits';

/** Who is asking: the client's address, and the account when the operation names one. */
export interface RateLimitSubject {
  readonly address: string;
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

/** Counters keep a digest of an address or e-mail, not the text itself. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 24);
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

  private openBucket(): Promise<KV> {
    if (this.transport.kind !== 'nats') throw new Error('No bucket on the in-process transport');
    const { url, jetstreamReplicas } = this.transport;
    this.bucket ??= (async () => {
      // Unlike the services' connections, this one fails at once while the broker is away: the
      // limits then count in memory, and the next request tries the broker again.
      this.connection ??= connect({
        ...natsConnectionOptions(url, 'gateway-rate-limits'),
        waitOnFirstConnect: false,
      });
      const kvm = new Kvm(await this.connection);
      const options = {
        history: 1,
        ttl: LONGEST_PERIOD_SECONDS * 1000,
        ...(jetstreamReplicas ? { replicas: jetstreamReplicas } : {}),
      };
      try {
        return await kvm.create(RATE_LIMIT_BUCKET, options);
      } catch (error) {
        // Made by another replica with other settings (a replica count): use it as it is.
        this.logger.warn(`Opening the ${RATE_LIMIT_BUCKET} bucket as it is: ${String(error)}`);
        return kvm.open(RATE_LIMIT_BUCKET);
      }
    })();
    this.bucket.catch(() => {
      this.bucket = undefined;
      this.connection = undefined;
    });
    return this.bucket;
  }

  /**
   * Counts one `action` against its address and account limits and, when both let it through,
   * against the deployment's ceiling; throws RateLimitedError (the longest wait) when one is
   * over. A request refused for its address or account takes nothing from the ceiling, so one
   * flooding client cannot use up everybody's share.
   */
  async consume(action: RateLimitedAction, subject: RateLimitSubject): Promise<void> {
    const own = await Promise.all([
      this.take(action, 'address', digest(clientOf(subject.address))),
      subject.account ? this.take(action, 'account', digest(subject.account)) : undefined,
    ]);
    const refusal = own
      .filter((outcome): outcome is RateLimitedError => outcome !== undefined)
      .sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
    if (refusal) throw refusal;
    const ceiling = await this.take(action, 'global', 'all');
    if (ceiling) throw ceiling;
  }

  /**
   * Gives the account's point back: a sign-in that succeeded was its owner, and only failures
   * should count against an account (anyone can type its address).
   */
  async forgive(action: RateLimitedAction, account: string): Promise<void> {
    await this.limiters
      .get(`${action}.account`)
      ?.reward(digest(account))
      .catch(() => undefined);
  }

  /** One point of `scope`'s limit for `key`: undefined when granted (or not limited). */
  private async take(
    action: RateLimitedAction,
    scope: RateLimitScope,
    key: string,
  ): Promise<RateLimitedError | undefined> {
    const limiter = this.limiters.get(`${action}.${scope}`);
    if (!limiter) return undefined;
    try {
      await limiter.consume(key);
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
