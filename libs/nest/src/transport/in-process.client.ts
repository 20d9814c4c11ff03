import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { InProcessBus } from './in-process-bus.js';
import { ReplyPacket, requestPacket } from './nest-internals.js';

/** The reason an in-process request found nobody to answer it, worded as NATS reports it. */
export class NoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`no responders for ${subject}`);
    this.name = 'NoRespondersError';
  }
}

/** The client half of the in-process transport: requests and their (streamed) replies. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
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
    { pattern, data }: ReadPacket,
    callback: (packet: WritePacket) => void,
  ): () => void {
    if (typeof pattern !== 'string') {
      throw new TypeError('The in-process transport routes by subject: a pattern is a string');
    }
    const subject = pattern;
    const packet = requestPacket(subject, data);
    let open = true;
    const receivers = this.bus.publish(subject, JSON.stringify(packet), (text) => {
      if (!open) return;
      const message = ReplyPacket.parse(JSON.parse(text));
      if (message.id !== packet.id) return;
      if (message.isDisposed || message.err) {
        open = false;
        callback({ err: message.err, response: message.response, isDisposed: true });
        return;
      }
      callback({ response: message.response });
    });
    if (receivers === 0) {
      open = false;
      setImmediate(() => callback({ err: new NoRespondersError(subject), isDisposed: true }));
    }
    return () => {
      open = false;
    };
  }

  /**
   * The platform sends no core events: the facts other services must not miss go through the
   * EventLog.
   */
  protected dispatchEvent<T>(): Promise<T> {
    return Promise.reject(
      new Error('The in-process transport carries requests; events go through the EventLog'),
    );
  }
}
