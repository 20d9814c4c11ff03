import {
  isNatsDeployable,
  NATS_MAX_PINGS_OUT,
  NATS_PING_INTERVAL_SECONDS,
  natsInboxPrefix,
  type NatsDeployable,
  type RequestContract,
  type ServiceName,
} from '@debate/contracts';
import type { ConnectionOptions, Msg, NatsConnection } from '@nats-io/transport-node';
import { ClientNats, type MessageHandler, type ServerNats } from '@nestjs/microservices';
import { finalize, type Observable } from 'rxjs';
import { WorkInProgress } from '../bootstrap/work-in-progress.js';
import { answerRequest, requestContractOf } from '../rpc/answer-request.js';
import { passedOnInCheckPhase } from './check-phase.js';
import { NestNatsServer } from './nest-internals.js';

/** A NATS user and its password. */
export interface NatsCredentials {
  readonly user: string;
  readonly password: string;
}

/** How a process reaches the broker, and as whom each of its deployables connects. */
export interface NatsSettings {
  readonly url: string;
  /**
   * Each deployable's NATS user (NATS_USER and NATS_PASSWORD in its environment). Unset: the
   * broker has no users and every deployable connects anonymously; set, a deployable missing
   * from it is refused (natsConnectionOptions).
   */
  readonly users?: Readonly<Partial<Record<NatsDeployable, NatsCredentials>>>;
  /** The CA bundle the server's certificate must chain to (NATS_TLS_CA_FILE): TLS is then required. */
  readonly tlsCaFile?: string;
}

/** A client of no deployable (a test's, a script's): it connects without credentials. */
export interface AnonymousNatsClient {
  /** What the server's monitoring shows for its connections. */
  readonly anonymous: string;
}

/**
 * Who connects: a deployable, as its own NATS user, or a client that says it is none. A
 * deployable cannot connect anonymously by a slip of its name.
 */
export type NatsClientIdentity = NatsDeployable | AnonymousNatsClient;

/** The name the server's monitoring shows for `client`'s connections. */
export function natsClientName(client: NatsClientIdentity): string {
  return typeof client === 'string' ? client : client.anonymous;
}

/** The deployable `client` is, if any; a string that names none is refused (an untyped caller). */
function deployableOf(client: NatsClientIdentity): NatsDeployable | undefined {
  if (typeof client !== 'string') return undefined;
  if (!isNatsDeployable(client)) {
    throw new Error(
      `${JSON.stringify(client)} is no NATS deployable: name a client of none as { anonymous: ${JSON.stringify(client)} }`,
    );
  }
  return client;
}

/** The servers of NATS_URL: one URL, or a cluster's separated by commas. */
export function natsServers(url: string): string[] {
  return url.split(',').map((server) => server.trim());
}

/**
 * Connection settings shared by every NATS client and server of the platform. `client` is who
 * connects: a deployable uses its own inbox prefix, the only one its permissions let it read
 * (natsPermissions), and its user from `nats.users`, which must hold it when it holds any user;
 * without `nats.users` (a broker without authorization) it connects anonymously, as an
 * AnonymousNatsClient always does. `name` is what the server's monitoring shows.
 */
export function natsConnectionOptions(
  nats: NatsSettings,
  client: NatsClientIdentity,
  name = natsClientName(client),
): ConnectionOptions {
  const own = deployableOf(client);
  const credentials = own ? nats.users?.[own] : undefined;
  if (own && nats.users && !credentials) {
    throw new Error(
      `No NATS credentials for ${own} among those of ${Object.keys(nats.users).join(', ')}`,
    );
  }
  return {
    servers: natsServers(nats.url),
    name,
    ...(own ? { inboxPrefix: natsInboxPrefix(own) } : {}),
    ...(credentials ? { user: credentials.user, pass: credentials.password } : {}),
    ...(nats.tlsCaFile ? { tls: { caFile: nats.tlsCaFile } } : {}),
    // A lost server is noticed within a minute (NATS_PING_INTERVAL_SECONDS), not nats.js's four.
    pingInterval: NATS_PING_INTERVAL_SECONDS * 1000,
    maxPingOut: NATS_MAX_PINGS_OUT,
    // Keep trying for ever: a broker restart must not take a service down with it.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    // A process started before the broker waits for it rather than failing.
    waitOnFirstConnect: true,
    // No stack trace captured for every request in case it fails: it costs on every request,
    // and a failed request becomes a ServiceUnavailableError that says which subject failed.
    noAsyncTraces: true,
  };
}

/** By default, how long a stopping service waits for the requests it took to be answered. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * The NATS server strategy, ready only once the broker has its subscriptions (a request sent
 * right after start-up finds its handler), and closing by draining: its subscriptions stop
 * taking new messages (the broker routes them to the other instances), every request already
 * taken is answered, including the ones whose handler is still working, then the
 * connection closes. (nats.js's own drain counts a message done when its callback returns,
 * before an async handler has replied: those replies were lost.)
 */
export class DrainingNatsServer extends NestNatsServer {
  /** The requests taken and not yet answered (a streamed reply counts until it ends). */
  private readonly inFlight = new WorkInProgress<object>();

  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly drainTimeoutMs = DRAIN_TIMEOUT_MS,
  ) {
    super(options);
  }

  protected async receive(
    channel: string,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown> {
    const request = {};
    this.inFlight.add(request);
    try {
      const handler = this.messageHandlers.get(channel);
      const contract = requestContractOf(handler);
      if (handler && contract && message.reply) {
        return await this.answer(channel, contract, handler, message, nest);
      }
      return await nest();
    } finally {
      this.inFlight.delete(request);
    }
  }

  /**
   * A request contract's request, answered here (answerRequest) with the one reply packet
   * NestJS's own path sends for a single reply. That path builds an Observable pipeline per
   * request, to support streams; a request has one reply.
   */
  private async answer(
    channel: string,
    contract: RequestContract,
    handler: MessageHandler,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown> {
    const { id, data } = await this.readPacket(channel, message);
    if (id === undefined) return nest();
    const context = this.contextOf(message);
    await this.runWithProcessingHooks(context, async (runEndHook) => {
      const reply = await answerRequest(contract, data, message.headers, handler, context);
      runEndHook();
      this.respond(message, id, { ...reply, isDisposed: true });
    });
    return undefined;
  }

  protected replies(replies$: Observable<unknown>): Observable<unknown> {
    // receive still counts its request when NestJS starts sending: the count never drops to 0
    // in between.
    const reply = {};
    this.inFlight.add(reply);
    // A stream's items (a run's words) leave in the loop's check phase, every stream's together.
    return passedOnInCheckPhase(replies$).pipe(finalize(() => this.inFlight.delete(reply)));
  }

  override async listen(callback: (...optionalParams: unknown[]) => void): Promise<void> {
    await super.listen((error?: unknown) => {
      if (error) {
        callback(error);
        return;
      }
      this.unwrap<NatsConnection>()
        .flush()
        .then(
          () => callback(),
          (flushError: unknown) => callback(flushError),
        );
    });
  }

  /** True once the broker answers a ping on this server's connection (for readiness). */
  async ping(): Promise<true | string> {
    const connection = this.unwrap<NatsConnection>();
    if (connection.isClosed()) return 'the NATS connection is closed';
    await connection.flush();
    return true;
  }

  override async close(): Promise<void> {
    let connection: NatsConnection | undefined;
    try {
      connection = this.unwrap<NatsConnection>();
    } catch {
      connection = undefined;
    }
    if (connection && !connection.isClosed()) {
      await Promise.all(this.handlerSubscriptions().map((subscription) => subscription.drain()));
      await this.inFlight.whenIdle(this.drainTimeoutMs);
      await connection.drain();
    }
    await super.close();
  }
}

export function createNatsServer(
  nats: NatsSettings,
  queue: ServiceName,
  drainTimeoutMs?: number,
): DrainingNatsServer {
  return new DrainingNatsServer({ ...natsConnectionOptions(nats, queue), queue }, drainTimeoutMs);
}

/**
 * NestJS's NATS client, connecting as `client`. Its connection keeps the options it was opened
 * with, inbox prefix included, where the request mux reads it (requestMuxOf).
 */
export function createNatsClient(nats: NatsSettings, client: NatsClientIdentity): ClientNats {
  return new ClientNats(natsConnectionOptions(nats, client));
}
