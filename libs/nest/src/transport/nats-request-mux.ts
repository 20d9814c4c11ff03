import { natsStreamInboxPrefix } from '@debate/contracts';
import {
  ClosedConnectionError,
  createInbox,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  NatsConnectionImpl,
  NoRespondersError,
  TimeoutError,
} from '@nats-io/transport-node';

interface Pending {
  readonly subject: string;
  readonly resolve: (message: Msg) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export interface MuxRequestOptions {
  readonly timeoutMs: number;
  readonly headers?: MsgHdrs;
}

/**
 * Request/reply over one connection with one reply subscription (`<inbox>.*`), each request
 * a token under it: what nats.js's own `request()` does, without its cost on the hot path.
 * nats.js builds an Error (a stack trace) for every request it settles, even a successful one,
 * to reject a promise nobody reads any more; measured on the gateway, that was 3.5% of its
 * CPU under load. NestJS's ClientNats is worse: a SUB and an UNSUB for every request.
 *
 * A reply is matched by its token; one that arrives after its request timed out is dropped.
 * When the connection closes, every request waiting on it fails at once.
 */
export class NatsRequestMux {
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;

  /** Replies arrive under the connection's own inbox prefix (natsConnectionOptions). */
  constructor(private readonly connection: NatsConnection) {
    this.prefix = `${createInbox(inboxPrefixOf(connection))}.`;
    connection.subscribe(`${this.prefix}*`, {
      callback: (error, message) => {
        if (!error) this.settle(message);
      },
    });
    void connection.closed().then(() => this.failAll(new ClosedConnectionError()));
  }

  request(subject: string, data: string, options: MuxRequestOptions): Promise<Msg> {
    const token = (this.sequence++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new TimeoutError());
      }, options.timeoutMs);
      this.pending.set(token, { subject, resolve, reject, timer });
      try {
        this.connection.publish(subject, data, {
          reply: `${this.prefix}${token}`,
          headers: options.headers,
        });
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(token);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private settle(message: Msg): void {
    const token = message.subject.slice(this.prefix.length);
    const pending = this.pending.get(token);
    if (!pending) return;
    this.pending.delete(token);
    clearTimeout(pending.timer);
    // The broker's own answer when no one subscribes to the subject: no data, status 503.
    if (message.data.length === 0 && message.headers?.code === 503) {
      pending.reject(new NoRespondersError(pending.subject));
    } else {
      pending.resolve(message);
    }
  }

  private failAll(error: Error): void {
    for (const [token, pending] of this.pending) {
      this.pending.delete(token);
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }
}

const muxes = new WeakMap<NatsConnection, NatsRequestMux>();

/**
 * The inbox prefix `connection` was opened with (undefined: nats.js's `_INBOX`). nats.js keeps a
 * connection's options on it (NatsConnectionImpl.options), where its own JetStream client reads
 * the prefix too; nats-request-mux.spec.ts checks it on a real connection.
 */
function inboxPrefixOf(connection: NatsConnection): string | undefined {
  return connection instanceof NatsConnectionImpl ? connection.options.inboxPrefix : undefined;
}

/**
 * A new inbox for the items of one streamed reply on `connection`, under its inbox prefix
 * (natsStreamInboxPrefix: the streaming service may publish there by name).
 */
export function streamInbox(connection: NatsConnection): string {
  return createInbox(natsStreamInboxPrefix(inboxPrefixOf(connection) ?? '_INBOX'));
}

/** The request mux of a connection, made on first use, under the connection's inbox prefix. */
export function requestMuxOf(connection: NatsConnection): NatsRequestMux {
  let mux = muxes.get(connection);
  if (!mux) {
    mux = new NatsRequestMux(connection);
    muxes.set(connection, mux);
  }
  return mux;
}
