/** Receives one message: its serialised text and, for a request, where to send replies. */
export type Delivery = (data: string, reply?: (data: string) => void) => void;

interface Subscription {
  readonly queue: string | undefined;
  readonly deliver: Delivery;
}

/**
 * The message bus of single-process mode. It routes the way NATS routes a core subject:
 * every subscriber outside a queue group receives a message, and each queue group delivers
 * it to one of its members, in turn. Messages travel as strings and are delivered on a later
 * tick, so no object is ever shared between sender and receiver.
 */
export class InProcessBus {
  private readonly subscriptions = new Map<string, Subscription[]>();
  private readonly turns = new Map<string, number>();
  private readonly remembered = new Map<string, number>();

  subscribe(subject: string, queue: string | undefined, deliver: Delivery): () => void {
    const entry: Subscription = { queue, deliver };
    const list = this.subscriptions.get(subject) ?? [];
    list.push(entry);
    this.subscriptions.set(subject, list);
    return () => {
      const current = this.subscriptions.get(subject);
      if (!current) return;
      const rest = current.filter((candidate) => candidate !== entry);
      if (rest.length > 0) this.subscriptions.set(subject, rest);
      else this.subscriptions.delete(subject);
    };
  }

  /** Delivers `data` on `subject` and returns how many subscribers will receive it. */
  publish(subject: string, data: string, reply?: (data: string) => void): number {
    if (typeof data !== 'string')
      throw new TypeError('The in-process bus carries serialised text only');
    const receivers = this.pick(subject);
    for (const receiver of receivers) {
      setImmediate(() => receiver.deliver(data, reply));
    }
    return receivers.length;
  }

  /**
   * Records `key` for `windowMs`; true when it was not already recorded (the duplicate window
   * of the in-process event log).
   */
  remember(key: string, windowMs: number, now = Date.now()): boolean {
    for (const [known, expiry] of this.remembered) {
      if (expiry > now) break; // insertion order is expiry order for one window
      this.remembered.delete(known);
    }
    const expiry = this.remembered.get(key);
    if (expiry !== undefined && expiry > now) return false;
    this.remembered.delete(key);
    this.remembered.set(key, now + windowMs);
    return true;
  }

  private pick(subject: string): Subscription[] {
    const list = this.subscriptions.get(subject) ?? [];
    const chosen: Subscription[] = [];
    const groups = new Map<string, Subscription[]>();
    for (const subscription of list) {
      if (subscription.queue === undefined) chosen.push(subscription);
      else
        groups.set(subscription.queue, [...(groups.get(subscription.queue) ?? []), subscription]);
    }
    for (const [queue, members] of groups) {
      const key = `${subject}\u0000${queue}`;
      const turn = this.turns.get(key) ?? 0;
      this.turns.set(key, turn + 1);
      const member = members[turn % members.length];
      if (member) chosen.push(member);
    }
    return chosen;
  }
}
