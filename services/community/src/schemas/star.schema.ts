import { type Connection, type Model, Schema } from 'mongoose';

/** One user's star on one public debate. */
export interface StarDocument {
  userId: string;
  debateId: string;
  at: Date;
}

const starSchema = new Schema<StarDocument>(
  {
    userId: { type: String, required: true },
    debateId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
// One star per user and debate; the user's stars newest first.
starSchema.index({ userId: 1, debateId: 1 }, { unique: true });
starSchema.index({ userId: 1, at: -1 });

/** The `stars` collection on the community's connection. */
export function starModel(connection: Connection): Model<StarDocument> {
  return connection.model<StarDocument>('Star', starSchema, 'stars');
}
