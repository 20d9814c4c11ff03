import {
  ClientProxy,
  type PacketId,
  type ReadPacket,
  type WritePacket,
} from '@nestjs/microservices';
import type { InProcessBus } from './in-process-bus.js';

/** The reason an in-process request found nobody to answer it, worded as NATS reports it. */
export class NoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`no responders for ${subject}`);
    this.name = 'NoRespondersError';
  }
}

interface IncomingPacket extends PacketId {
  err?: unknown;
  response?: unknown;
  isDisposed?: boolean;
}

/** The client half of the in-process transport: requests, streamed replies and events. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
    this.initializeSerializer({});
    this.initializeDeserializer({});
  }

  async connect(): Promise<void> {
    // Nothing to connect to: the bus lives in this process.
  }

  async close(): Promise<void> {
    // Nothing to close.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(
    partialPacket: ReadPacket,
    callback: (packet: WritePacket) => void,
  ): () => void {
    const packet = this.assignPacketId(partialPacket);
    const subject = this.normalizePattern(packet.pattern);
    let open = true;
    const receivers = this.bus.publish(
      subject,
      JSON.stringify(this.serializer.serialize(packet)),
      (data) => {
        if (!open) return;
        const message = JSON.parse(data) as IncomingPacket;
        if (message.id !== packet.id) return;
        if (message.isDisposed || message.err) {
          open = false;
          callback({ err: message.err, response: message.response, isDisposed: true });
          return;
        }
        callback({ response: message.response });
      },
    );
    if (receivers === 0) {
      open = false;
      setImmediate(() => callback({ err: new NoRespondersError(subject), isDisposed: true }));
    }
    return () => {
      open = false;
    };
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const subject = this.normalizePattern(packet.pattern);
    this.bus.publish(subject, JSON.stringify(this.serializer.serialize(packet)));
    return undefined as T;
  }
}
