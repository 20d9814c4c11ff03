import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type Connection, Schema } from 'mongoose';

/** A user of the realm, as Keycloak keeps it: credentials and lockout state, nothing else. */
export interface RealmUser {
  _id: string;
  email: string;
  passwordHash: string;
  enabled: boolean;
  failures: number;
  lockedUntil: Date | null;
  createdAt: Date;
}

/** A sign-in session: its refresh token is kept only as a hash, and is rotated on every use. */
export interface RealmSession {
  _id: string;
  userId: string;
  clientId: string;
  refreshHash: string;
  startedAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

const userSchema = new Schema<RealmUser>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    passwordHash: { type: String, required: true },
    enabled: { type: Boolean, default: true },
    failures: { type: Number, default: 0 },
    lockedUntil: { type: Date, default: null },
    createdAt: { type: Date, default: () => new Date() },
  },
  { versionKey: false },
);

const sessionSchema = new Schema<RealmSession>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    clientId: { type: String, required: true },
    refreshHash: { type: String, required: true, unique: true },
    startedAt: { type: Date, required: true },
    lastUsedAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  },
  { versionKey: false },
);

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export class EmailTakenError extends Error {
  constructor() {
    super('User exists with same email');
    this.name = 'EmailTakenError';
  }
}

/** The issuer's own documents (a database of its own, as Keycloak has). */
export class RealmStore {
  private readonly users;
  private readonly sessions;

  constructor(connection: Connection) {
    this.users = connection.model<RealmUser>('RealmUser', userSchema, 'realm_users');
    this.sessions = connection.model<RealmSession>('RealmSession', sessionSchema, 'realm_sessions');
  }

  async init(): Promise<void> {
    await Promise.all([this.users.init(), this.sessions.init()]);
  }

  async createUser(email: string, passwordHash: string): Promise<RealmUser> {
    try {
      const created = await this.users.create({ _id: randomUUID(), email, passwordHash });
      return created.toObject();
    } catch (error) {
      if ((error as { code?: number }).code === 11000) throw new EmailTakenError();
      throw error;
    }
  }

  findUserByEmail(email: string): Promise<RealmUser | null> {
    return this.users.findOne({ email: email.trim().toLowerCase() }).lean<RealmUser>().exec();
  }

  findUser(id: string): Promise<RealmUser | null> {
    return this.users.findById(id).lean<RealmUser>().exec();
  }

  /** Counts a failed password; returns the new count (atomic under concurrent attempts). */
  async recordFailure(id: string): Promise<number> {
    const user = await this.users
      .findByIdAndUpdate(id, { $inc: { failures: 1 } }, { returnDocument: 'after' })
      .lean<RealmUser>()
      .exec();
    return user?.failures ?? 0;
  }

  async lockUntil(id: string, until: Date): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { lockedUntil: until } }).exec();
  }

  async clearFailures(id: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { failures: 0, lockedUntil: null } }).exec();
  }

  async startSession(
    userId: string,
    clientId: string,
    refreshToken: string,
  ): Promise<RealmSession> {
    const now = new Date();
    const session = await this.sessions.create({
      _id: randomUUID(),
      userId,
      clientId,
      refreshHash: hashToken(refreshToken),
      startedAt: now,
      lastUsedAt: now,
    });
    return session.toObject();
  }

  /**
   * Swaps a session's refresh token for a new one, once: a token already used or revoked finds
   * nothing (so a replayed token is refused).
   */
  rotate(
    refreshToken: string,
    next: string,
    limits: { usedSince: Date; startedSince: Date },
  ): Promise<RealmSession | null> {
    return this.sessions
      .findOneAndUpdate(
        {
          refreshHash: hashToken(refreshToken),
          revokedAt: null,
          lastUsedAt: { $gte: limits.usedSince },
          startedAt: { $gte: limits.startedSince },
        },
        { $set: { refreshHash: hashToken(next), lastUsedAt: new Date() } },
        { returnDocument: 'after' },
      )
      .lean<RealmSession>()
      .exec();
  }

  async revoke(refreshToken: string): Promise<boolean> {
    const result = await this.sessions
      .updateOne(
        { refreshHash: hashToken(refreshToken), revokedAt: null },
        { $set: { revokedAt: new Date() } },
      )
      .exec();
    return result.modifiedCount === 1;
  }
}
