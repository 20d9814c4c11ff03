import type { JudgesReport } from '@debate/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The judges' record as the last recompute left it (one document), with the moment the public
 * debates it was computed from were read, so that a recompute that read earlier never
 * overwrites one that read later (two replicas may recompute at once).
 */
export interface JudgesReportDocument extends Omit<JudgesReport, 'computedAt' | 'computeMs'> {
  _id: string;
  computedAt: Date;
  computeMs: number;
  readAt: Date;
}

const judgesReportSchema = new Schema<JudgesReportDocument>(
  {
    _id: { type: String, required: true },
    // The records as the contract's JudgeRecord (validated there when sent).
    judges: { type: Schema.Types.Mixed, default: [] },
    all: { type: Schema.Types.Mixed, required: true },
    debates: { type: Number, required: true },
    bootstrapRounds: { type: Number, required: true },
    computedAt: { type: Date, required: true },
    computeMs: { type: Number, required: true },
    readAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

/** The `judges_reports` collection on the community's connection. */
export function judgesReportModel(connection: Connection): Model<JudgesReportDocument> {
  return connection.model<JudgesReportDocument>(
    'JudgesReport',
    judgesReportSchema,
    'judges_reports',
  );
}

/** The one report's key in `judges_reports`. */
export const JUDGES_REPORT_ID = 'judges';
