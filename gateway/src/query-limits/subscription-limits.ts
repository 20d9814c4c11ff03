import { GraphQLError } from 'graphql';

/** A WebSocket connection's own count of its live subscriptions (made at connection_init). */
export interface ConnectionSubscriptions {
  live: number;
}

function tooMany(limit: number, per: 'connection' | 'account'): GraphQLError {
  return new GraphQLError(
    `Too many debates watched at once: at most ${limit} per ${per}. Close one and try again.`,
    { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit, per } },
  );
}

/**
 * Bounds live subscriptions per connection and per account. Each holds a NATS subscription and
 * a queue in this gateway, so the per-account count is this replica's: a client that spreads
 * its connections over replicas gets the limit once per replica.
 */
export class SubscriptionLimits {
  private readonly byAccount = new Map<string, number>();

  constructor(
    readonly perConnection: number,
    readonly perAccount: number,
  ) {}

  /** Takes a place for one subscription, or throws TOO_MANY_SUBSCRIPTIONS; returns its release. */
  acquire(account: string, connection: ConnectionSubscriptions | undefined): () => void {
    if (connection && connection.live >= this.perConnection) {
      throw tooMany(this.perConnection, 'connection');
    }
    const live = this.byAccount.get(account) ?? 0;
    if (live >= this.perAccount) throw tooMany(this.perAccount, 'account');
    this.byAccount.set(account, live + 1);
    if (connection) connection.live += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (connection) connection.live -= 1;
      const remaining = (this.byAccount.get(account) ?? 1) - 1;
      if (remaining > 0) this.byAccount.set(account, remaining);
      else this.byAccount.delete(account);
    };
  }
}
