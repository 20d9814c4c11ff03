import { Logger } from '@nestjs/common';
import {
  BaseRpcContext,
  type CustomTransportStrategy,
  type IncomingEvent,
  type IncomingRequest,
  Server,
  type WritePacket,
} from '@nestjs/microservices';
import { answerRequest, requestContractOf } from '../rpc/answer-request.js';
import type { InProcessBus } from './in-process-bus.js';

/** The context an in-process handler receives: the subject the message came on. */
export class InProcessContext extends BaseRpcContext<[string]> {
  getSubject(): string {
    return this.args[0];
  }
}

const NO_MESSAGE_HANDLER = 'There is no matching message handler defined in the remote service.';

/**
 * A NestJS transport strategy over the in-process bus. It behaves as the NATS server
 * strategy does: one subscription per pattern in the service's queue group, JSON on the
 * wire, and every value of an Observable handler sent back as its own reply.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override readonly transportId = Symbol.for('debate.in-process');
  private unsubscribers: Array<() => void> = [];
  protected override readonly logger = new Logger(InProcessServer.name);

  constructor(
    private readonly bus: InProcessBus,
    private readonly queue: string,
  ) {
    super();
    this.initializeSerializer({});
    this.initializeDeserializer({});
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const extras = handler.extras as { queue?: string } | undefined;
      const unsubscribe = this.bus.subscribe(
        pattern,
        extras?.queue ?? this.queue,
        (data, reply) => {
          this.handleMessage(pattern, data, reply).catch((error: unknown) =>
            this.logger.error(error),
          );
        },
      );
      this.unsubscribers.push(unsubscribe);
    }
    callback();
  }

  close(): void {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
  }

  on(): void {
    // The bus has no connection to lose, so it emits no status events.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private async handleMessage(
    channel: string,
    data: string,
    reply: ((data: string) => void) | undefined,
  ): Promise<void> {
    const context = new InProcessContext([channel]);
    const packet = (await this.deserializer.deserialize(JSON.parse(data), { channel })) as
      IncomingRequest | IncomingEvent;
    if (!('id' in packet) || packet.id === undefined) {
      await this.handleEvent(channel, packet, context);
      return;
    }
    const id = packet.id;
    const publish = (response: WritePacket) => {
      if (!reply) return;
      reply(JSON.stringify(this.serializer.serialize({ ...response, id })));
    };
    const handler = this.getHandlerByPattern(channel);
    if (!handler) {
      publish({ err: NO_MESSAGE_HANDLER, isDisposed: true });
      return;
    }
    const contract = requestContractOf(handler);
    if (contract) {
      // As the NATS strategy answers a request contract's request: one reply, no Observable.
      await this.runWithProcessingHooks(context, async (runEndHook) => {
        const reply = await answerRequest(contract, packet.data, undefined, handler, context);
        runEndHook();
        publish({ ...reply, isDisposed: true });
      });
      return;
    }
    this.handleRequest(
      context,
      async () => this.transformToObservable(await handler(packet.data, context)),
      publish,
    );
  }
}
