import type { LeaderboardBoard } from '@debate/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * One stored board, as the last recompute left it: keyed by subject, pairsOnly and controlled
 * (`MODEL:all`, `STYLE:pairs`, `MODEL:all:controlled`), with the moment the public debates it was computed from were
 * read, so that a recompute that read earlier never overwrites one that read later (two
 * replicas may recompute at once).
 */
export interface LeaderboardDocument extends Omit<LeaderboardBoard, 'computedAt' | 'computeMs'> {
  _id: string;
  computedAt: Date;
  computeMs: number;
  readAt: Date;
}

const leaderboardSchema = new Schema<LeaderboardDocument>(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    pairsOnly: { type: Boolean, required: true },
    // (Defaulted: the boards stored before there were controlled ones are not.)
    controlled: { type: Boolean, default: false },
    // The rows as the contract's LeaderboardRow (validated there when sent).
    rows: { type: Schema.Types.Mixed, default: [] },
    apart: { type: Schema.Types.Mixed, default: [] },
    debates: { type: Number, required: true },
    apartDebates: { type: Number, required: true },
    notRated: { type: Schema.Types.Mixed, required: true },
    bootstrapRounds: { type: Number, required: true },
    computedAt: { type: Date, required: true },
    computeMs: { type: Number, required: true },
    readAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

/** The `leaderboards` collection on the community's connection. */
export function leaderboardModel(connection: Connection): Model<LeaderboardDocument> {
  return connection.model<LeaderboardDocument>('Leaderboard', leaderboardSchema, 'leaderboards');
}

/**
 * A board's key in `leaderboards`; a controlled board's ends in `:controlled` (so that the
 * boards stored before there were controlled ones keep their keys).
 */
export const boardId = (subject: string, pairsOnly: boolean, controlled: boolean): string =>
  `${subject}:${pairsOnly ? 'pairs' : 'all'}${controlled ? ':controlled' : ''}`;
