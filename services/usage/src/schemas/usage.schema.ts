import { type Connection, type Model, Schema } from 'mongoose';

/** The usage record of one user (spec §3 debateUsage), keyed by user id. */
export interface UsageDocument {
  _id: string;
  userId: string;
  email: string;
  totalDebates: number;
  freeDebatesRemaining: number;
  lastDebateStarted: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The UTC day (YYYY-MM-DD) the test account was last reset to its daily 100. */
  testResetOn: string | null;
  /** Runs whose debate was taken and may still be given back. */
  openRuns: string[];
  /**
   * When each open run's debate was taken, by run id (absent for runs opened before it was
   * kept: those count from lastDebateStarted, which is never earlier).
   */
  openRunsTakenAt?: Record<string, Date>;
  /**
   * When the user's latest debates were taken, newest first, at most the start limit's worth
   * (absent on records from before it was kept).
   */
  recentStarts?: Date[];
  /** The run of the user's last debate that ended normally (absent until one has). */
  lastSettledRun?: string | null;
  /** The tokens the models counted for the user's runs, in and out (absent on older records). */
  tokensIn?: number;
  tokensOut?: number;
}

const usageSchema = new Schema<UsageDocument>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    email: { type: String, required: true },
    totalDebates: { type: Number, required: true },
    freeDebatesRemaining: { type: Number, required: true },
    lastDebateStarted: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    testResetOn: { type: String, default: null },
    openRuns: { type: [String], default: [] },
    openRunsTakenAt: { type: Schema.Types.Mixed, default: {} },
    recentStarts: { type: [Date], default: [] },
    lastSettledRun: { type: String, default: null },
    tokensIn: { type: Number, default: 0 },
    tokensOut: { type: Number, default: 0 },
  },
  { versionKey: false },
);

/** The `debateUsage` collection on the usage service's connection. */
export function usageModel(connection: Connection): Model<UsageDocument> {
  return connection.model<UsageDocument>('Usage', usageSchema, 'debateUsage');
}
