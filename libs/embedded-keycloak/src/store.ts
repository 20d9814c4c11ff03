import { isDuplicateKeyError } from '@debate/nest';
import { createHash, randomUUID } from 'node:crypto';
import { type Connection, Schema } from 'mongoose';

/** A user of the realm, as Keycloak keeps it: credentials and lockout state, nothing else. */
export interface RealmUser {
  _id: string;
  email: string;
  /** Null for a user who signs in only through Google or GitHub. */
  passwordHash: string | null;
  displayName: string | null;
  photoURL: string | null;
  enabled: boolean;
  /**
   * Whether the address is known to be the user's: a verify-email link was followed, or a
   * provider that vouches for the address signed them in (Keycloak's trustEmail).
   */
  emailVerified: boolean;
  failures: number;
  /** When the last wrong password was given (Keycloak's quick-login check reads it). */
  lastFailureAt: Date | null;
  lockedUntil: Date | null;
  createdAt: Date;
}

/** How many of a session's earlier refresh tokens are remembered, to recognise a replay. */
const REMEMBERED_TOKENS = 20;

/** A sign-in session: its refresh token is kept only as a hash, and is rotated on every use. */
export interface RealmSession {
  _id: string;
  userId: string;
  clientId: string;
  refreshHash: string;
  /** The session's earlier refresh tokens (hashes, the latest few): presenting one is a replay. */
  usedHashes: string[];
  startedAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
  /** Why the session ended: signed out, or a refresh token presented twice. */
  revokedFor: 'logout' | 'reuse' | null;
}

const userSchema = new Schema<RealmUser>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    passwordHash: { type: String, default: null },
    displayName: { type: String, default: null },
    photoURL: { type: String, default: null },
    enabled: { type: Boolean, default: true },
    emailVerified: { type: Boolean, default: false },
    failures: { type: Number, default: 0 },
    lastFailureAt: { type: Date, default: null },
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
    usedHashes: { type: [String], default: [], index: true },
    startedAt: { type: Date, required: true },
    lastUsedAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedFor: { type: String, default: null },
  },
  { versionKey: false },
);

/** A user's link to an account at a brokered provider (Keycloak's federated identity). */
interface FederatedLink {
  /** `<alias>:<subject at the provider>` */
  _id: string;
  userId: string;
  createdAt: Date;
}

/** A sign-in through a provider in progress: what to send back to the client once it returns. */
export interface BrokerFlow {
  /** The state sent to the provider. */
  _id: string;
  alias: string;
  clientId: string;
  clientRedirectUri: string;
  clientState: string | null;
  codeChallenge: string;
  brokerVerifier: string;
  nonce: string;
  createdAt: Date;
}

/** An authorization code: single use, bound to its client, redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  /** The code's hash. */
  _id: string;
  userId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  createdAt: Date;
}

/**
 * Keycloak's authentication session of a browser following a verify-email link: the
 * AUTH_SESSION_ID cookie names it, and the action token bound to it carries its id.
 */
export interface AuthSession {
  _id: string;
  tabId: string;
  userId: string;
  clientId: string;
  /** Where the "Back to Application" link leads once the address is verified. */
  redirectUri: string | null;
  /** Whether the address was verified in this session (the required-action page may show). */
  done: boolean;
  createdAt: Date;
}

const linkSchema = new Schema<FederatedLink>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

const flowSchema = new Schema<BrokerFlow>(
  {
    _id: { type: String, required: true },
    alias: { type: String, required: true },
    clientId: { type: String, required: true },
    clientRedirectUri: { type: String, required: true },
    clientState: { type: String, default: null },
    codeChallenge: { type: String, required: true },
    brokerVerifier: { type: String, required: true },
    nonce: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

const codeSchema = new Schema<AuthorizationCode>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    clientId: { type: String, required: true },
    redirectUri: { type: String, required: true },
    codeChallenge: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

const authSessionSchema = new Schema<AuthSession>(
  {
    _id: { type: String, required: true },
    tabId: { type: String, required: true },
    userId: { type: String, required: true },
    clientId: { type: String, required: true },
    redirectUri: { type: String, default: null },
    done: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
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
  private readonly links;
  private readonly flows;
  private readonly codes;
  private readonly authSessions;

  constructor(connection: Connection) {
    this.users = connection.model<RealmUser>('RealmUser', userSchema, 'realm_users');
    this.sessions = connection.model<RealmSession>('RealmSession', sessionSchema, 'realm_sessions');
    this.links = connection.model<FederatedLink>('RealmLink', linkSchema, 'realm_links');
    this.flows = connection.model<BrokerFlow>('RealmBrokerFlow', flowSchema, 'realm_broker_flows');
    this.codes = connection.model<AuthorizationCode>('RealmCode', codeSchema, 'realm_codes');
    this.authSessions = connection.model<AuthSession>(
      'RealmAuthSession',
      authSessionSchema,
      'realm_auth_sessions',
    );
  }

  async init(): Promise<void> {
    await Promise.all([this.users.init(), this.sessions.init()]);
  }

  async createUser(
    email: string,
    passwordHash: string | null,
    profile: {
      displayName?: string | null;
      photoURL?: string | null;
      emailVerified?: boolean;
    } = {},
  ): Promise<RealmUser> {
    try {
      const created = await this.users.create({
        _id: randomUUID(),
        email,
        passwordHash,
        displayName: profile.displayName ?? null,
        photoURL: profile.photoURL ?? null,
        emailVerified: profile.emailVerified ?? false,
      });
      return created.toObject();
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new EmailTakenError();
      throw error;
    }
  }

  async findLinkedUser(alias: string, subject: string): Promise<RealmUser | null> {
    const link = await this.links.findById(`${alias}:${subject}`).lean<FederatedLink>().exec();
    return link ? this.findUser(link.userId) : null;
  }

  /** Links a provider account to a user; false when it is already linked (to anyone). */
  async link(alias: string, subject: string, userId: string): Promise<boolean> {
    try {
      await this.links.create({ _id: `${alias}:${subject}`, userId, createdAt: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async fillProfile(
    id: string,
    profile: { displayName: string | null; photoURL: string | null },
  ): Promise<void> {
    for (const field of ['displayName', 'photoURL'] as const) {
      const value = profile[field];
      if (value === null) continue;
      await this.users.updateOne({ _id: id, [field]: null }, { $set: { [field]: value } }).exec();
    }
  }

  async markEmailVerified(id: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { emailVerified: true } }).exec();
  }

  async saveFlow(flow: BrokerFlow): Promise<void> {
    await this.flows.create(flow);
  }

  /** Takes a provider sign-in in progress, once, if it started after `since`. */
  takeFlow(state: string, since: Date): Promise<BrokerFlow | null> {
    return this.flows
      .findOneAndDelete({ _id: state, createdAt: { $gte: since } })
      .lean<BrokerFlow>()
      .exec();
  }

  async saveCode(code: string, grant: Omit<AuthorizationCode, '_id' | 'createdAt'>): Promise<void> {
    await this.codes.create({ _id: hashToken(code), ...grant, createdAt: new Date() });
  }

  /** Redeems an authorization code, once, if it was issued after `since`. */
  takeCode(code: string, since: Date): Promise<AuthorizationCode | null> {
    return this.codes
      .findOneAndDelete({ _id: hashToken(code), createdAt: { $gte: since } })
      .lean<AuthorizationCode>()
      .exec();
  }

  async startAuthSession(authSession: AuthSession): Promise<void> {
    await this.authSessions.create(authSession);
  }

  /** An authentication session that started after `since` and is not finished. */
  findAuthSession(id: string, since: Date): Promise<AuthSession | null> {
    return this.authSessions
      .findOne({ _id: id, done: false, createdAt: { $gte: since } })
      .lean<AuthSession>()
      .exec();
  }

  async finishAuthSession(id: string): Promise<void> {
    await this.authSessions.updateOne({ _id: id }, { $set: { done: true } }).exec();
  }

  /** Takes a finished authentication session of `tabId`, once, if it started after `since`. */
  takeFinishedAuthSession(id: string, tabId: string, since: Date): Promise<AuthSession | null> {
    return this.authSessions
      .findOneAndDelete({ _id: id, tabId, done: true, createdAt: { $gte: since } })
      .lean<AuthSession>()
      .exec();
  }

  findUserByEmail(email: string): Promise<RealmUser | null> {
    return this.users.findOne({ email: email.trim().toLowerCase() }).lean<RealmUser>().exec();
  }

  findUser(id: string): Promise<RealmUser | null> {
    return this.users.findById(id).lean<RealmUser>().exec();
  }

  /**
   * Counts a failed password at `at` (atomic under concurrent attempts); returns the new count and
   * when the failure before it was.
   */
  async recordFailure(
    id: string,
    at: Date,
  ): Promise<{ failures: number; previousFailureAt: Date | null }> {
    const before = await this.users
      .findByIdAndUpdate(
        id,
        { $inc: { failures: 1 }, $set: { lastFailureAt: at } },
        { returnDocument: 'before' },
      )
      .lean<RealmUser>()
      .exec();
    return {
      failures: (before?.failures ?? 0) + 1,
      previousFailureAt: before?.lastFailureAt ?? null,
    };
  }

  async lockUntil(id: string, until: Date): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { lockedUntil: until } }).exec();
  }

  async clearFailures(id: string): Promise<void> {
    await this.users
      .updateOne({ _id: id }, { $set: { failures: 0, lastFailureAt: null, lockedUntil: null } })
      .exec();
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
   * Swaps a session's refresh token, issued to `clientId`, for a new one, once: a token already used or revoked finds
   * nothing (so a replayed token is refused). The old token is kept, hashed, to tell a replay
   * from a token never issued.
   */
  rotate(
    refreshToken: string,
    clientId: string,
    next: string,
    limits: { usedSince: Date; startedSince: Date },
  ): Promise<RealmSession | null> {
    const used = hashToken(refreshToken);
    return this.sessions
      .findOneAndUpdate(
        {
          refreshHash: used,
          // Another client's attempt leaves the token as it is (it is not the holder's replay).
          clientId,
          revokedAt: null,
          lastUsedAt: { $gte: limits.usedSince },
          startedAt: { $gte: limits.startedSince },
        },
        {
          $set: { refreshHash: hashToken(next), lastUsedAt: new Date() },
          $push: { usedHashes: { $each: [used], $slice: -REMEMBERED_TOKENS } },
        },
        { returnDocument: 'after' },
      )
      .lean<RealmSession>()
      .exec();
  }

  /** The session a refresh token was issued for, whether it is the current token or an earlier one. */
  findSessionByToken(refreshToken: string): Promise<RealmSession | null> {
    const hashed = hashToken(refreshToken);
    return this.sessions
      .findOne({ $or: [{ refreshHash: hashed }, { usedHashes: hashed }] })
      .lean<RealmSession>()
      .exec();
  }

  /** Ends a session (if it is still open), for `reason`. */
  async endSession(id: string, reason: 'logout' | 'reuse'): Promise<void> {
    await this.sessions
      .updateOne(
        { _id: id, revokedAt: null },
        { $set: { revokedAt: new Date(), revokedFor: reason } },
      )
      .exec();
  }
}
