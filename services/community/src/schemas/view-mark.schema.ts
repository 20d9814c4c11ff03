import { type Connection, type Model, Schema } from 'mongoose';

/** One reader's view of one public debate on one UTC day: what makes a view count once. */
export interface ViewMarkDocument {
  /** The UTC day, `2026-11-27`. */
  day: string;
  debateId: string;
  /** A keyed hash of the day and the reader (the account, or the address): never the address. */
  reader: string;
}

const viewMarkSchema = new Schema<ViewMarkDocument>(
  {
    day: { type: String, required: true },
    debateId: { type: String, required: true },
    reader: { type: String, required: true },
  },
  { versionKey: false },
);
// One mark per reader, debate and day; by day first, so that the past days go in one range.
viewMarkSchema.index({ day: 1, debateId: 1, reader: 1 }, { unique: true });

/** The `view_marks` collection on the community's connection. */
export function viewMarkModel(connection: Connection): Model<ViewMarkDocument> {
  return connection.model<ViewMarkDocument>('ViewMark', viewMarkSchema, 'view_marks');
}
