import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { bearerToken, InvalidTokenError, type TokenVerifier } from '../auth/token-verifier.js';
import { rateLimited } from '../rate-limit/rate-limit.guard.js';
import { clientOf, RateLimitedError, type RateLimiter } from '../rate-limit/rate-limiter.js';
import type { ConnectionSubscriptions } from './subscription-limits.js';

/** What bounds a WebSocket connection to /graphql, beside the operations' own limits. */
export interface WebSocketLimits {
  /** The largest message the server reads, in bytes: the HTTP body limit (ws closes with 1009). */
  readonly maxPayloadBytes: number;
  /** How long a new connection may take to send its connection_init. */
  readonly connectionInitTimeoutMs: number;
  /** Connections open at once per client address on this replica (then HTTP 429, no socket). */
  readonly openPerAddress: number;
  /** Connections open at once per account on this replica (then closed 1013 before the ack). */
  readonly openPerAccount: number;
}

/** graphql-ws's close for a socket that sent no connection_init in time. */
const CONNECTION_INIT_TIMEOUT = { code: 4408, reason: 'Connection initialisation timeout' };

/** graphql-ws's close for a second connection_init on one socket. */
const TOO_MANY_INITIALISATIONS = { code: 4429, reason: 'Too many initialisation requests' };

/** graphql-ws's close for a message it cannot read as the protocol's (here: a query not text). */
const INVALID_MESSAGE = { code: 4400, reason: 'Invalid message received' };

/** WebSocket's "Try Again Later": the account opened too many connections (the reason says why). */
const TRY_AGAIN_LATER = 1013;

/** The refusal of a connection over the open-at-once limit of an address or an account. */
function tooManyConnections(limit: number, per: 'address' | 'account'): GraphQLError {
  return new GraphQLError(
    `Too many connections open at once: at most ${limit} per ${per}. Close one and try again.`,
    { extensions: { code: 'TOO_MANY_CONNECTIONS', limit, per } },
  );
}

/** The access token a graphql-ws client sends in connection_init ({ authorization: 'Bearer …' }). */
function authorizationOf(payload: unknown): string | undefined {
  const value =
    payload && typeof payload === 'object'
      ? (payload as Record<string, unknown>)['authorization']
      : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What an operation of a WebSocket connection sees as its context (Mercurius merges it in). */
export interface SubscriptionContext {
  readonly req: { headers: Record<string, string | undefined> };
  readonly subscriptions: ConnectionSubscriptions;
}

/**
 * graphql-ws has no HTTP headers after the upgrade: a client sends its access token in the
 * `connection_init` payload ({ authorization: 'Bearer …' }). This puts it where the auth guard
 * reads it for every operation of the connection, with the connection's count of its live
 * subscriptions (SUBSCRIPTIONS_PER_CONNECTION).
 */
export function subscriptionContext(
  data: { payload?: unknown },
  subscriptions: ConnectionSubscriptions = { live: 0 },
): SubscriptionContext {
  return { req: { headers: { authorization: authorizationOf(data.payload) } }, subscriptions };
}

/** One socket's admission: its account, once counted, and its live subscriptions. */
interface Gate {
  readonly subscriptions: ConnectionSubscriptions;
  /** Counts the token's account (once per connection); false when the connection is refused. */
  admit(payload: unknown): Promise<boolean>;
}

const gates = new WeakMap<object, Gate>();

/** The gate of Mercurius's connection (`this` of its onConnect call), if it has one. */
function gateOf(connection: unknown): Gate | undefined {
  if (!connection || typeof connection !== 'object' || !('socket' in connection)) return undefined;
  const socket: unknown = connection.socket;
  return socket && typeof socket === 'object' ? gates.get(socket) : undefined;
}

/**
 * Mercurius's `onConnect`, which it awaits before acknowledging a connection_init and calls as
 * a method of its connection (whose `socket` names the gate), for the connection_init and for
 * a subscribe message's `connectionInit` extension alike: wherever a token becomes the
 * context, the account is counted first. Refused (false: Mercurius answers Forbidden) when
 * the socket has no gate (fails closed), is closing, or the account is over its limits; or
 * when the token is another account's than the one the connection was counted for.
 */
export async function admittedConnection(
  this: unknown,
  data: { payload?: unknown },
): Promise<SubscriptionContext | false> {
  const gate = gateOf(this);
  if (!gate || !(await gate.admit(data.payload))) return false;
  return subscriptionContext(data, gate.subscriptions);
}

const ClientMessage = z.object({ type: z.string(), payload: z.unknown().optional() });
const SubscribePayload = z.object({ query: z.string() });

/** The message's type and payload, if it is a JSON object with a type. */
function clientMessage(data: RawData): z.output<typeof ClientMessage> | undefined {
  try {
    const parsed = ClientMessage.safeParse(JSON.parse(String(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** How Mercurius writes the failure of an operation (its sendMessage: type, id, payload). */
const ERROR_MESSAGE = '{"type":"error","id":';
const ErrorMessage = z.object({ type: z.literal('error'), id: z.union([z.string(), z.number()]) });

/**
 * After the server's `error` for an operation, the operation is over (graphql-ws), but
 * Mercurius files a subscription under its id before running it and forgets it only when the
 * client completes it or the socket closes: each refusal (by a resolver: TOO_MANY_SUBSCRIPTIONS,
 * UNAUTHENTICATED, an unknown run) or failed stream would stay filed, and one socket could file
 * them without end. So the server completes it in the client's stead: the protocol's own
 * complete (legacy graphql-ws: stop), handed to Mercurius as the socket's next message.
 */
function completingAfterErrors(socket: WebSocket): void {
  const stop = socket.protocol === 'graphql-ws' ? 'stop' : 'complete';
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  const sendThenComplete = (...args: unknown[]): void => {
    send(...args);
    const [data] = args;
    if (typeof data !== 'string' || !data.startsWith(ERROR_MESSAGE)) return;
    const failed = ErrorMessage.safeParse(JSON.parse(data));
    if (!failed.success) return;
    socket.emit('message', Buffer.from(JSON.stringify({ type: stop, id: failed.data.id })), false);
  };
  socket.send = sendThenComplete as WebSocket['send'];
}

/** Adds one to `key`'s count; the answer takes it back (once). */
function take(counts: Map<string, number>, key: string): () => void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const remaining = (counts.get(key) ?? 1) - 1;
    if (remaining > 0) counts.set(key, remaining);
    else counts.delete(key);
  };
}

/**
 * The WebSocket server of /graphql, registered before Mercurius (which then uses it rather than
 * its own, whose messages may be 1 MiB), with the HTTP path's bounds:
 * - a message is at most the body limit (over it, ws closes the connection with 1009);
 * - an upgrade counts against `openWebSocket`'s address limit, in the shared rate limiter, and
 *   against `openPerAddress` connections open at once on this replica; over either the answer
 *   is HTTP 429 (RATE_LIMITED with Retry-After, or TOO_MANY_CONNECTIONS), and no socket;
 * - connection_init is awaited `connectionInitTimeoutMs`, then the socket is closed with 4408
 *   (graphql-ws's "Connection initialisation timeout"); a second one closes it with 4429;
 * - a token that becomes the connection's context (`admittedConnection`, Mercurius's
 *   onConnect) counts against the account's `openWebSocket` limit and `openPerAccount`; over
 *   either the socket is closed with 1013 (Try Again Later) and the refusal's message, before
 *   Mercurius acknowledges the init;
 * - a subscribe message whose query is not text is closed with 4400 (Mercurius would take it
 *   as a parsed document, past the preSubscriptionParsing hook that validates it);
 * - an operation the server answers with `error` is completed (`completingAfterErrors`).
 */
export async function registerWebSocketServer(
  fastify: FastifyInstance,
  limits: WebSocketLimits,
  limiter: RateLimiter,
  verifier: TokenVerifier | undefined,
): Promise<void> {
  await fastify.register(fastifyWebsocket, { options: { maxPayload: limits.maxPayloadBytes } });
  const openByAddress = new Map<string, number>();
  const openByAccount = new Map<string, number>();

  const countAddress = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    if (!request.ws) return undefined;
    try {
      await limiter.consume('openWebSocket', { address: request.ip });
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      return reply
        .code(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ errors: [rateLimited(error.retryAfterSeconds).toJSON()] });
    }
    const client = clientOf(request.ip);
    if ((openByAddress.get(client) ?? 0) >= limits.openPerAddress) {
      return reply
        .code(429)
        .send({ errors: [tooManyConnections(limits.openPerAddress, 'address').toJSON()] });
    }
    // Held by the upgrade's TCP connection, which is the WebSocket's: released when it closes,
    // whether the upgrade succeeded or not.
    request.raw.socket.once('close', take(openByAddress, client));
    return undefined;
  };
  // On the WebSocket route only (Mercurius's GET /graphql, whose plain GET queries it lets by):
  // the POSTs of the web app pay nothing for it.
  fastify.addHook('onRoute', (route) => {
    if (!route.wsHandler) return;
    const hooks = route.onRequest;
    route.onRequest = [...(Array.isArray(hooks) ? hooks : hooks ? [hooks] : []), countAddress];
  });

  /** The account of a valid token, or undefined (the operations refuse an invalid one). */
  const accountOf = async (payload: unknown): Promise<string | undefined> => {
    const token = bearerToken(authorizationOf(payload));
    if (!token || !verifier) return undefined;
    try {
      return (await verifier.verify(token)).id;
    } catch (error) {
      if (error instanceof InvalidTokenError) return undefined;
      throw error;
    }
  };

  const gateFor = (socket: WebSocket): Gate => {
    let counted: string | undefined;
    const admit = async (payload: unknown): Promise<boolean> => {
      if (socket.readyState !== socket.OPEN) return false;
      const account = await accountOf(payload);
      // No valid token: the connection is the address's only.
      if (account === undefined) return socket.readyState === socket.OPEN;
      // Counted already: the same account goes on; another one is not this connection's.
      if (counted !== undefined) return account === counted;
      try {
        await limiter.consume('openWebSocket', { account });
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        socket.close(TRY_AGAIN_LATER, rateLimited(error.retryAfterSeconds).message);
        return false;
      }
      if (socket.readyState !== socket.OPEN) return false;
      if (counted !== undefined) return account === counted;
      if ((openByAccount.get(account) ?? 0) >= limits.openPerAccount) {
        socket.close(TRY_AGAIN_LATER, tooManyConnections(limits.openPerAccount, 'account').message);
        return false;
      }
      counted = account;
      socket.once('close', take(openByAccount, account));
      return true;
    };
    return { subscriptions: { live: 0 }, admit };
  };

  fastify.websocketServer.on('connection', (socket: WebSocket) => {
    gates.set(socket, gateFor(socket));
    completingAfterErrors(socket);
    const deadline = setTimeout(
      () => socket.close(CONNECTION_INIT_TIMEOUT.code, CONNECTION_INIT_TIMEOUT.reason),
      limits.connectionInitTimeoutMs,
    );
    let initialised = false;
    // Before Mercurius's listener (added after this event; it reads each message later, in a
    // promise's turn, so a socket closed here is closing when Mercurius gets to the message).
    socket.on('message', (data: RawData) => {
      const message = clientMessage(data);
      if (message?.type === 'connection_init') {
        if (initialised) {
          socket.close(TOO_MANY_INITIALISATIONS.code, TOO_MANY_INITIALISATIONS.reason);
          return;
        }
        initialised = true;
        clearTimeout(deadline);
      } else if (
        (message?.type === 'subscribe' || message?.type === 'start') &&
        !SubscribePayload.safeParse(message.payload).success
      ) {
        socket.close(INVALID_MESSAGE.code, INVALID_MESSAGE.reason);
      }
    });
    socket.once('close', () => clearTimeout(deadline));
  });
}
