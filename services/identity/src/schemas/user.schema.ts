import { type Connection, type Model, Schema } from 'mongoose';

/** A user document (spec §3 users), keyed by the realm's user id. */
export interface UserDocument {
  _id: string;
  email: string;
  displayName: string | null;
  photoURL: string | null;
  isPro: boolean;
  /** The realm's word at the last sign-in or check (the realm decides; this is its echo). */
  emailVerified: boolean;
  starredDebates: string[];
  createdAt: Date;
  updatedAt: Date;
  /** When `identity.user.created` reached the event log; null until then (the outbox flag). */
  announcedAt: Date | null;
}

const userSchema = new Schema<UserDocument>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    displayName: { type: String, default: null },
    photoURL: { type: String, default: null },
    isPro: { type: Boolean, default: false },
    emailVerified: { type: Boolean, default: false },
    starredDebates: { type: [String], default: [] },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    announcedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
userSchema.index({ announcedAt: 1 }, { partialFilterExpression: { announcedAt: null } });

/** The `users` collection on the identity service's connection. */
export function userModel(connection: Connection): Model<UserDocument> {
  return connection.model<UserDocument>('User', userSchema, 'users');
}
