import type { FinishedRun } from '@debate/contracts';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A user's latest completed run, not saved yet (one per user: `_id` is the user's id). The run
 * is the contract's FinishedRun, validated when it came and again when it is read.
 */
export interface KeptRunDocument {
  _id: string;
  run: FinishedRun;
  keptAt: Date;
}

const keptRunSchema = new Schema<KeptRunDocument>(
  {
    _id: { type: String, required: true },
    run: { type: Schema.Types.Mixed, required: true },
    keptAt: { type: Date, required: true },
  },
  { versionKey: false },
);

/** The `kept_runs` collection on the debates service's connection. */
export function keptRunModel(connection: Connection): Model<KeptRunDocument> {
  return connection.model<KeptRunDocument>('KeptRun', keptRunSchema, 'kept_runs');
}
