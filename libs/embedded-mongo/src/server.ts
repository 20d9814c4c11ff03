import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { runCommand } from './commands/commands.js';
import { CommandContext } from './commands/context.js';
import { CommandError } from './errors.js';
import { type CompactionPolicy, Engine } from './store/engine.js';
import {
  composeMsg,
  composeReply,
  HEADER_SIZE,
  MAX_MESSAGE_SIZE,
  MORE_TO_COME,
  OP_COMPRESSED,
  parseMessage,
  readHeader,
  type Request,
} from './wire/protocol.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export interface StartOptions {
  /** TCP port; 0 picks a free one. Default 27017. */
  readonly port?: number;
  /** Where the journal and the lock file live. */
  readonly dbPath: string;
  /** Default 127.0.0.1. Any other address needs `allowRemote`: the server has no authentication. */
  readonly host?: string;
  readonly allowRemote?: boolean;
  /** When the journal is compacted (default: 3× the live data, and over 8 MiB). */
  readonly compaction?: CompactionPolicy;
}

export interface RunningServer {
  /** A `mongodb://` URL for mongoose or the official driver. */
  readonly uri: string;
  readonly port: number;
  /** Journal size in bytes (for the benchmark and operators). */
  journalBytes(): number;
  /** Rewrites the journal as the live data alone. */
  compact(): Promise<void>;
  stop(): Promise<void>;
}

let requestIds = 1;

/** Serves one connection: its messages are answered in order, one command at a time. */
function serve(socket: Socket, context: CommandContext): void {
  let buffered: Buffer = Buffer.alloc(0);
  let skipping = 0; // bytes of an oversized message still to discard
  let queue = Promise.resolve();

  const answer = async (request: Request): Promise<void> => {
    if (request.kind === 'query') {
      const command = request.query;
      const reply = await runCommand(
        { ...command, $db: request.collection.split('.')[0] },
        context,
      );
      if (!socket.destroyed)
        socket.write(composeReply(requestIds++, request.header.requestId, reply));
      return;
    }
    const reply = await runCommand(request.body, context);
    if (request.flags & MORE_TO_COME) return; // unacknowledged write: no answer
    if (!socket.destroyed) socket.write(composeMsg(requestIds++, request.header.requestId, reply));
  };

  const refuse = (requestId: number, error: CommandError) => {
    if (!socket.destroyed) socket.write(composeMsg(requestIds++, requestId, error.toDocument()));
  };

  socket.on('data', (chunk: Buffer) => {
    if (skipping > 0) {
      const skipped = Math.min(skipping, chunk.length);
      skipping -= skipped;
      chunk = chunk.subarray(skipped);
    }
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    while (buffered.length >= HEADER_SIZE) {
      const header = readHeader(buffered);
      if (header.length < HEADER_SIZE) {
        socket.destroy();
        return;
      }
      if (header.length > MAX_MESSAGE_SIZE) {
        // Too big to read: answer with MongoDB's error, drop its bytes, keep the connection.
        const available = Math.min(buffered.length, header.length);
        skipping = header.length - available;
        buffered = buffered.subarray(available);
        refuse(
          header.requestId,
          new CommandError(
            'BSONObjectTooLarge',
            `message of ${header.length} bytes exceeds the maximum of ${MAX_MESSAGE_SIZE} bytes`,
          ),
        );
        continue;
      }
      if (buffered.length < header.length) break;
      const message = buffered.subarray(0, header.length);
      buffered = buffered.subarray(header.length);
      if (header.opCode === OP_COMPRESSED) {
        refuse(header.requestId, new CommandError('BadValue', 'compression is not supported'));
        continue;
      }
      let request: Request;
      try {
        request = parseMessage(message);
      } catch (error) {
        refuse(header.requestId, new CommandError('FailedToParse', (error as Error).message));
        continue;
      }
      queue = queue
        .then(() => answer(request))
        .catch(() => {
          socket.destroy();
        });
    }
  });
  socket.on('error', () => socket.destroy());
}

/**
 * Starts a MongoDB-compatible server on `dbPath`. Mongoose and the official driver connect to
 * `uri` unchanged. Refuses a `dbPath` another server holds, and a non-loopback address unless
 * `allowRemote` is set.
 */
export async function start(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !options.allowRemote) {
    throw new Error(
      `refusing to listen on ${host}: the embedded server has no authentication (allow it explicitly to bind another address)`,
    );
  }
  const engine = await Engine.open(resolve(options.dbPath), options.compaction);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => sockets.delete(socket));
    serve(socket, new CommandContext(engine));
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 27017, host, () => resolveListen());
    });
  } catch (error) {
    await engine.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 27017);
  const uriHost = host.includes(':') ? `[${host}]` : host;
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${uriHost}:${port}`,
    port,
    journalBytes: () => engine.journalBytes,
    compact: () => engine.compact(),
    stop: () => {
      stopped ??= (async () => {
        await new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          for (const socket of sockets) socket.destroy();
        });
        await engine.close();
      })();
      return stopped;
    },
  };
}
