import type { RunEvent } from '../features/engine/engine.slice';

/** What the gateway answers a run's subscription with, after the connection is acknowledged. */
type RunAnswer =
  /** The run's events, then the end of the subscription when `complete` (else it stays open). */
  | { readonly events: readonly RunEvent[]; readonly complete: boolean }
  /** graphql-ws's `error` message: its payload, a plain array of GraphQL errors. */
  | { readonly errors: readonly { message: string; extensions?: { code: string } }[] }
  /** The connection closed by the server with `code` (1011: an internal error, not retried). */
  | { readonly close: number };

/** The sockets opened, and what each was sent (parsed). */
interface RunSockets {
  readonly opened: { readonly sent: unknown[]; readonly closed: () => boolean }[];
}

/**
 * The gateway's graphql-ws endpoint (the graphql-transport-ws protocol) in place of the
 * browser's WebSocket, so that the real graphql-ws client follows a run: it acknowledges the
 * connection and answers the `debateRun` subscription of run `id` with `answer(id)`. Call the
 * returned function to put the browser's WebSocket back.
 */
export function fakeRunSocket(answer: (runId: string) => RunAnswer): RunSockets & {
  restore(): void;
} {
  const real = globalThis.WebSocket;
  const opened: RunSockets['opened'] = [];
  class FakeSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readonly protocol = 'graphql-transport-ws';
    readyState = FakeSocket.CONNECTING;
    onopen: ((event: object) => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
    onerror: ((event: object) => void) | null = null;
    private readonly sent: unknown[] = [];

    constructor() {
      opened.push({ sent: this.sent, closed: () => this.readyState === FakeSocket.CLOSED });
      setTimeout(() => {
        this.readyState = FakeSocket.OPEN;
        this.onopen?.({});
      });
    }

    send(data: string) {
      const message = JSON.parse(data) as {
        id?: string;
        type: string;
        payload?: { variables?: { id?: string } };
      };
      this.sent.push(message);
      if (message.type === 'connection_init') this.reply({ type: 'connection_ack' });
      if (message.type !== 'subscribe') return;
      const answered = answer(message.payload?.variables?.id ?? '');
      const id = message.id;
      if ('close' in answered) {
        this.close(answered.close, 'Internal server error');
        return;
      }
      if ('errors' in answered) {
        this.reply({ id, type: 'error', payload: answered.errors });
        return;
      }
      for (const event of answered.events) {
        this.reply({ id, type: 'next', payload: { data: { debateRun: event } } });
      }
      if (answered.complete) this.reply({ id, type: 'complete' });
    }

    close(code = 1000, reason = '') {
      if (this.readyState === FakeSocket.CLOSED) return;
      this.readyState = FakeSocket.CLOSED;
      setTimeout(() => this.onclose?.({ code, reason, wasClean: true }));
    }

    private reply(message: object) {
      setTimeout(() => {
        if (this.readyState === FakeSocket.OPEN)
          this.onmessage?.({ data: JSON.stringify(message) });
      });
    }
  }
  Object.assign(globalThis, { WebSocket: FakeSocket });
  return { opened, restore: () => Object.assign(globalThis, { WebSocket: real }) };
}
