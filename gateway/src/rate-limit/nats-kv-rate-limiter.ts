import type { KV } from '@nats-io/kv';
import { RateLimiterRes } from 'rate-limiter-flexible';
// The base class of the library's own stores (Redis, Mongo, etcd…): typed in its index, but not
// exported at run time. The version is pinned (~) and this file's tests cross a real bucket.
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';
import { z } from 'zod';

/** A window's count as the bucket holds it: points taken, and when the window ends (epoch ms). */
const WindowCount = z.object({ points: z.number().int(), expire: z.number().int() });
type WindowCount = z.output<typeof WindowCount>;

/** How often a counter update is tried again when another replica wrote it first. */
const MAX_ATTEMPTS = 20;

/**
 * How long one count may take in the bucket (opening it included) before the limiter counts in
 * memory instead (its insurance): a broker that does not answer must not hold requests up.
 */
const STORE_TIMEOUT_MS = 1_000;

export function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The rate-limit bucket did not answer within ${STORE_TIMEOUT_MS} ms`)),
      STORE_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const encoder = new TextEncoder();

/** A compare-and-set of the bucket found another revision than the one read. */
function isWrongRevision(error: unknown): boolean {
  return error instanceof Error && /wrong last sequence|key exists/i.test(error.message);
}

/**
 * rate-limiter-flexible's fixed-window limiter over a NATS JetStream key-value bucket, so that
 * every gateway replica counts in the same place. Each update is a compare-and-set on the key's
 * revision (create when absent, update at the revision read), tried again when another replica
 * won the race; within one replica the updates of a key are queued, so they never race each
 * other. The bucket's TTL drops a counter once its longest window has passed.
 */
export class RateLimiterNatsKv extends RateLimiterStoreAbstract {
  private readonly queues = new Map<string, Promise<unknown>>();

  /** `bucket`: opens the shared bucket (once; a failure is tried again on the next call). */
  constructor(
    private readonly bucket: () => Promise<KV>,
    options: Omit<ConstructorParameters<typeof RateLimiterStoreAbstract>[0], 'storeClient'>,
  ) {
    super({ ...options, storeClient: bucket });
  }

  /** Bucket keys take `[-/_=.a-zA-Z0-9]`; the library joins prefix and key with a colon. */
  private static keyOf(rlKey: string): string {
    return rlKey.replace(/[^-/_=.a-zA-Z0-9]/g, '.');
  }

  private serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** Called by the library: the count after taking `points`, in a window of `msDuration`. */
  _upsert(
    rlKey: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<WindowCount> {
    const key = RateLimiterNatsKv.keyOf(rlKey);
    // The wait counts from the call, queue included: while the bucket does not answer, every
    // waiting request falls back to memory after the timeout, not one timeout after another.
    return withinTimeout(
      this.serialized(key, () => this.update(key, points, msDuration, forceExpire)),
    );
  }

  private async update(
    key: string,
    points: number,
    msDuration: number,
    forceExpire: boolean,
  ): Promise<WindowCount> {
    const bucket = await this.bucket();
    for (let attempt = 1; ; attempt += 1) {
      const entry = await bucket.get(key);
      const now = Date.now();
      const current = entry?.operation === 'PUT' ? this.parse(entry.string()) : null;
      const live = current && current.expire > now ? current : null;
      // A point given back to a window that has ended: nothing to give it back to.
      if (points < 0 && !live) return { points: 0, expire: now };
      const next: WindowCount =
        current && current.expire > now && !forceExpire
          ? { points: current.points + points, expire: current.expire }
          : { points, expire: now + msDuration };
      try {
        const data = encoder.encode(JSON.stringify(next));
        if (entry) await bucket.update(key, data, entry.revision);
        else await bucket.create(key, data);
        return next;
      } catch (error) {
        if (!isWrongRevision(error) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private parse(text: string): WindowCount | null {
    const parsed = WindowCount.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  /** Called by the library: the key's count, or null when it has none. */
  async _get(rlKey: string): Promise<WindowCount | null> {
    const entry = await withinTimeout(
      this.bucket().then((bucket) => bucket.get(RateLimiterNatsKv.keyOf(rlKey))),
    );
    if (entry?.operation !== 'PUT') return null;
    const count = this.parse(entry.string());
    return count && count.expire > Date.now() ? count : null;
  }

  /** Called by the library: forgets the key's count. */
  async _delete(rlKey: string): Promise<boolean> {
    const existed = (await this._get(rlKey)) !== null;
    await (await this.bucket()).delete(RateLimiterNatsKv.keyOf(rlKey));
    return existed;
  }

  /** Called by the library: the answer a caller sees, from a count. */
  _getRateLimiterRes(_rlKey: string, changedPoints: number, count: WindowCount): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - count.points, 0),
      Math.max(count.expire - Date.now(), 0),
      count.points,
      count.points === changedPoints,
    );
  }
}
