import type { NatsConnection } from '@nats-io/transport-node';
import { ClientNats, ServerNats } from '@nestjs/microservices';

/** Connection settings shared by every NATS client and server of the platform. */
export function natsConnectionOptions(url: string, name: string) {
  return {
    servers: [url],
    name,
    // Keep trying for ever: a broker restart must not take a service down with it.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    // A process started before the broker waits for it rather than failing.
    waitOnFirstConnect: true,
  };
}

/**
 * The NATS server strategy, ready only once the broker has its subscriptions (a request sent
 * right after start-up finds its handler), and closing by draining: subscriptions stop taking
 * new messages, the ones already received are answered, then the connection closes.
 */
export class DrainingNatsServer extends ServerNats {
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
    if (connection && !connection.isClosed()) await connection.drain();
    await super.close();
  }
}

export function createNatsServer(url: string, queue: string): DrainingNatsServer {
  return new DrainingNatsServer({ ...natsConnectionOptions(url, queue), queue });
}

export function createNatsClient(url: string, name: string): ClientNats {
  return new ClientNats(natsConnectionOptions(url, name));
}
