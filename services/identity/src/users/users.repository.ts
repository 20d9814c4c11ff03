import { userCreatedEvent } from '@debate/contracts';
import {
  EventLog,
  isDuplicateKeyError,
  MONGO_CONNECTION,
  PinoLoggerService,
  withTransientRetry,
} from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { type UserDocument, userModel } from '../schemas/user.schema.js';
import type { TokenIdentity } from '../keycloak/keycloak.client.js';

/**
 * The `users` collection and the sign-in bookkeeping of spec §4: the first sign-in creates the
 * document and announces the user (`identity.user.created`, once per user id), later sign-ins
 * merge email, displayName, photoURL and updatedAt.
 */
@Injectable()
export class UsersRepository implements OnApplicationBootstrap {
  private readonly users: Model<UserDocument>;

  constructor(
    @Inject(MONGO_CONNECTION) connection: Connection,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {
    this.users = userModel(connection);
  }

  /** Announces users whose announcement did not reach the log before the service last stopped. */
  async onApplicationBootstrap(): Promise<void> {
    await this.users.init();
    void this.announcePending().catch((error: unknown) =>
      this.logger.warn(`Could not announce pending users yet: ${String(error)}`),
    );
  }

  async find(id: string): Promise<UserDocument | null> {
    return this.users.findById(id).lean<UserDocument>().exec();
  }

  /** Keeps the realm's latest word on the user's address. */
  async recordEmailVerified(id: string, emailVerified: boolean): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { emailVerified } }).exec();
  }

  /** Records a sign-in of the user a token names and returns the merged document. */
  async recordSignIn(identity: TokenIdentity): Promise<UserDocument> {
    const now = new Date();
    const merged: Partial<UserDocument> = {
      email: identity.email,
      emailVerified: identity.emailVerified,
      updatedAt: now,
    };
    const created: Partial<UserDocument> = {
      isPro: false,
      starredDebates: [],
      createdAt: now,
      announcedAt: null,
    };
    if (identity.displayName !== undefined) merged.displayName = identity.displayName;
    else created.displayName = null;
    if (identity.photoURL !== undefined) merged.photoURL = identity.photoURL;
    else created.photoURL = null;

    const upsert = () =>
      this.users
        .findOneAndUpdate(
          { _id: identity.id },
          { $set: merged, $setOnInsert: created },
          { upsert: true, returnDocument: 'after' },
        )
        .lean<UserDocument>()
        .exec();
    const document = await withTransientRetry(async () => {
      try {
        return await upsert();
      } catch (error) {
        // Two first sign-ins raced to insert: the loser's retry finds the winner's document.
        if (isDuplicateKeyError(error)) return upsert();
        throw error;
      }
    });
    if (!document) throw new Error(`The sign-in of ${identity.id} stored no user document`);
    if (document.announcedAt === null) await this.announce(document);
    return document;
  }

  /**
   * Publishes `identity.user.created` with the user id as event id, then marks the document.
   * Concurrent sign-ins may both publish; the log keeps one (its duplicate window). If the log
   * is unreachable the sign-in still succeeds and the next sign-in, or the next start, retries.
   */
  private async announce(document: UserDocument): Promise<void> {
    try {
      await this.events.publish(
        userCreatedEvent,
        {
          userId: document._id,
          email: document.email,
          createdAt: document.createdAt.toISOString(),
        },
        document._id,
      );
      await this.users
        .updateOne({ _id: document._id, announcedAt: null }, { $set: { announcedAt: new Date() } })
        .exec();
    } catch (error) {
      this.logger.error(`Could not announce user ${document._id}: ${String(error)}`);
    }
  }

  async announcePending(): Promise<number> {
    const pending = await this.users.find({ announcedAt: null }).limit(1000).lean<UserDocument[]>();
    for (const document of pending) await this.announce(document);
    return pending.length;
  }
}
