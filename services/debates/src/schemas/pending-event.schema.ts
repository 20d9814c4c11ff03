import { Schema } from 'mongoose';

/**
 * The event a debate's last change owes the event log: the outbox. It is set in the same write
 * as the change and cleared once the log holds the event, so a change the user was told about
 * is announced even if the log was unreachable then, or the service stopped in between.
 */
export interface PendingEvent {
  readonly kind: 'shared' | 'unshared';
  /** When the change was made: the unshared event's time, and part of its event id. */
  readonly at: Date;
}

export const pendingEventSchema = new Schema<PendingEvent>(
  {
    kind: { type: String, enum: ['shared', 'unshared'], required: true },
    at: { type: Date, required: true },
  },
  { _id: false },
);
