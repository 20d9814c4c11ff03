import type { PublicDebate, StanceBefore, VoteKind } from '@debate/contracts';
import type { MindsMatrix } from '../minds/minds-changed.js';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The community's copy of a shared debate. `votes` maps each voter to their vote (spec §3), so
 * that a vote and the counters it moves change in one atomic write of one document.
 * `removedAt` marks a copy taken back (a tombstone). `popularity` and `controversy` are the
 * ranking scores of the counters, kept with them.
 */
export interface PublicDebateDocument extends Omit<
  PublicDebate,
  'id' | 'timestamp' | 'sharedAt' | 'mindsChanged' | 'example' | 'isPro'
> {
  _id: string;
  /** The author's plan when the debate was saved (spec §3): stored, not answered. */
  isPro: boolean;
  timestamp: Date;
  sharedAt: Date;
  removedAt: Date | null;
  votes: Record<string, VoteKind>;
  /** Where each reader stood before reading, or SKIPPED; set once (spec of minds changed). */
  before: Record<string, StanceBefore | 'SKIPPED'>;
  /** Readers by stance before × vote after (MindsMatrix), moved with each answer. */
  minds: MindsMatrix;
  popularity: number;
  controversy: number;
  /** When the debates its `rating` was decided from were read (the leaderboard's recompute). */
  ratedAt?: Date | null;
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
  name: String,
  stance: Number,
  rhetoricStyle: String,
  writtenBy: { type: writtenBySchema, default: null },
  // Whether it was given personality hints; null: saved before this was kept.
  personalityHints: { type: Boolean, default: null },
};

const publicDebateSchema = new Schema<PublicDebateDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    userDisplayName: { type: String, required: true },
    topic: { type: String, required: true },
    categories: { type: [String], required: true },
    timestamp: { type: Date, required: true },
    sharedAt: { type: Date, required: true },
    removedAt: { type: Date, default: null },
    views: { type: Number, default: 0 },
    upvotes: { type: Number, default: 1 },
    downvotes: { type: Number, default: 0 },
    interesting: { type: Number, default: 0 },
    votes: { type: Schema.Types.Mixed, default: {} },
    before: { type: Schema.Types.Mixed, default: {} },
    minds: { type: Schema.Types.Mixed, default: {} },
    popularity: { type: Number, default: 0 },
    controversy: { type: Number, default: 0 },
    isPublic: { type: Boolean, default: true },
    isPro: { type: Boolean, default: false },
    model1: speakerInfo,
    model2: speakerInfo,
    // The judges' scorecard, as the contracts' Verdict (validated there); null: not judged.
    verdict: { type: Schema.Types.Mixed, default: null },
    debateFormat: { type: String, default: null },
    moderatorEnabled: { type: Boolean, default: null },
    // The debate this one is the rematch of (a side-swapped pair); null: not a rematch.
    rematchOf: { type: String, default: null },
    // Its author stopped it before the end (absent: shared before Stop existed).
    stopped: { type: Boolean, default: false },
    // Whether the leaderboard rates it (the contracts' DebateRating), as its last recompute
    // decided; null until one has read it.
    rating: { type: String, default: null },
    ratedAt: { type: Date, default: null },
    rounds: [
      {
        _id: false,
        speaker: String,
        round: Number,
        text: String,
        summary: String,
        writtenBy: { type: writtenBySchema, default: null },
        // How a speaker team made it, as the contracts' TeamNotes (validated there); null: one
        // completion wrote it.
        team: { type: Schema.Types.Mixed, default: null },
      },
    ],
  },
  { versionKey: false, minimize: false },
);
// One index per sort (the ranking reads it in order, filtering as it goes), and one for the
// category filter.
publicDebateSchema.index({ sharedAt: -1, _id: -1 });
publicDebateSchema.index({ popularity: -1, sharedAt: -1, _id: -1 });
publicDebateSchema.index({ controversy: -1, sharedAt: -1, _id: -1 });
publicDebateSchema.index({ categories: 1, sharedAt: -1 });
// The account page counts its user's rated debates against a model (the People board).
publicDebateSchema.index({ userId: 1 });
// A debate's page finds its rematch (the other half of a side-swapped pair).
publicDebateSchema.index(
  { rematchOf: 1 },
  { partialFilterExpression: { rematchOf: { $type: 'string' } } },
);

/** The `public_debates` collection on the community's connection. */
export function publicDebateModel(connection: Connection): Model<PublicDebateDocument> {
  return connection.model<PublicDebateDocument>(
    'PublicDebate',
    publicDebateSchema,
    'public_debates',
  );
}
