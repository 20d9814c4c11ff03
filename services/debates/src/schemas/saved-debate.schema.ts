import type { SharedDebate } from '@debate/contracts';
import { type Connection, type Model, Schema } from 'mongoose';
import { type PendingEvent, pendingEventSchema } from './pending-event.schema.js';

/**
 * A saved debate in the store: the fields it is announced with (the author's plan among them),
 * times as dates, the run id as _id.
 */
export interface SavedDebateDocument extends Omit<SharedDebate, 'id' | 'timestamp' | 'sharedAt'> {
  _id: string;
  timestamp: Date;
  sharedAt: Date | null;
  pendingEvent?: PendingEvent | null;
  /** Set when the owner deleted it while its removal from the community is still owed. */
  deletedAt?: Date | null;
}

/** What wrote a speaker's rounds or one round (the contract's WrittenBy); absent on older debates. */
const writtenBySchema = new Schema(
  {
    kind: { type: String, required: true },
    modelId: { type: String, required: true },
    label: { type: String, required: true },
    serverModel: { type: String, default: null },
    tokensIn: { type: Number, default: null },
    tokensOut: { type: Number, default: null },
    firstTokenMs: { type: Number, default: null },
    totalMs: { type: Number, required: true },
    turns: { type: Number, required: true },
    failedTurns: { type: Number, required: true },
  },
  { _id: false },
);

const speakerInfo = {
  name: { type: String, required: true },
  stance: { type: Number, required: true },
  rhetoricStyle: { type: String, required: true },
  writtenBy: { type: writtenBySchema, default: null },
  // Whether it was given personality hints; null: saved before this was kept.
  personalityHints: { type: Boolean, default: null },
};

const savedDebateSchema = new Schema<SavedDebateDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    userDisplayName: { type: String, required: true },
    topic: { type: String, required: true },
    categories: { type: [String], required: true },
    timestamp: { type: Date, required: true },
    sharedAt: { type: Date, default: null },
    views: { type: Number, default: 0 },
    upvotes: { type: Number, default: 0 },
    downvotes: { type: Number, default: 0 },
    isPublic: { type: Boolean, default: false },
    isPro: { type: Boolean, default: false },
    model1: speakerInfo,
    model2: speakerInfo,
    rounds: [
      {
        _id: false,
        speaker: { type: String, required: true },
        round: { type: Number, required: true },
        text: { type: String, required: true },
        summary: { type: String, required: true },
        writtenBy: { type: writtenBySchema, default: null },
        // How a speaker team made it, as the contracts' TeamNotes (validated there); null: one
        // completion wrote it.
        team: { type: Schema.Types.Mixed, default: null },
      },
    ],
    // The judges' scorecard, as the contracts' Verdict (validated there); null: not judged.
    verdict: { type: Schema.Types.Mixed, default: null },
    // The format it ran in (null: saved before it was kept), and the debate it is the rematch of.
    debateFormat: { type: String, default: null },
    moderatorEnabled: { type: Boolean, default: null },
    rematchOf: { type: String, default: null },
    // Its author stopped it before the end (absent: saved before Stop existed, not stopped).
    stopped: { type: Boolean, default: false },
    pendingEvent: { type: pendingEventSchema, default: null },
    deletedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
// The history list: one user's debates by time (and id, for a stable cursor).
savedDebateSchema.index({ userId: 1, timestamp: -1, _id: -1 });
// The outbox: only the few debates that still owe an event are in it.
savedDebateSchema.index(
  { 'pendingEvent.at': 1 },
  { partialFilterExpression: { 'pendingEvent.at': { $exists: true } } },
);

/** The `debates` collection on the debates service's connection. */
export function savedDebateModel(connection: Connection): Model<SavedDebateDocument> {
  return connection.model<SavedDebateDocument>('Debate', savedDebateSchema, 'debates');
}
