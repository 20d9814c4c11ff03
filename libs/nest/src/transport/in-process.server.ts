import { Logger } from '@nestjs/common';
import {
  BaseRpcContext,
  type CustomTransportStrategy,
  type MessageHandler,
  Server,
  type WritePacket,
} from '@nestjs/microservices';
import { answerRequest, requestContractOf } from '../rpc/answer-request.js';
import type { InProcessBus } from './in-process-bus.js';
import { IncomingPacket, replyPacket } from './nest-internals.js';

/** The context an in-process handler receives: the subject the message came on. */
export class InProcessContext extends BaseRpcContext<[string]> {
  getSubject(): string {
    return this.args[0];
  }
}

/**
 * A NestJS transport strategy over the in-process bus. It behaves as the NATS server
 * strategy does: one subscription per pattern in the service's queue group, NestJS's packets
 * as JSON on the wire, and every value of an Observable handler sent back as its own reply.
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
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const unsubscribe = this.bus.subscribe(pattern, this.queue, (data, reply) => {
        this.handleMessage(pattern, handler, data, reply).catch((error: unknown) =>
          this.logger.error(error),
        );
      });
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
    handler: MessageHandler,
    data: string,
    reply: ((data: string) => void) | undefined,
  ): Promise<void> {
    const { id, data: payload } = IncomingPacket.parse(JSON.parse(data));
    // Requests only: the platform's events go through the event log, not the server.
    if (id === undefined) return;
    const context = new InProcessContext([channel]);
    const publish = (response: WritePacket) => reply?.(JSON.stringify(replyPacket(id, response)));
    const contract = requestContractOf(handler);
    if (contract) {
      // As the NATS strategy answers a request contract's request: one reply, no Observable.
      await this.runWithProcessingHooks(context, async (runEndHook) => {
        const answer = await answerRequest(contract, payload, undefined, handler, context);
        runEndHook();
        publish({ ...answer, isDisposed: true });
      });
      return;
    }
    this.handleRequest(
      context,
      async () => this.transformToObservable(await handler(payload, context)),
      publish,
    );
  }
}
