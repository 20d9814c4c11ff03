import { isDuplicateKeyError, MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { createHmac, randomBytes } from 'node:crypto';
import { type ViewMarkDocument, viewMarkModel } from '../schemas/view-mark.schema.js';

/** Where the service reads the time: the server's clock, or a test's. */
export const CLOCK = Symbol('CLOCK');
export type Clock = () => Date;

/** Who reads: the signed-in account, else the client's address. */
export type Reader = { readonly account: string } | { readonly address: string };

/** The document of the deployment's key the readers' hashes are made with. */
interface ViewKeyDocument {
  _id: string;
  key: string;
}

/**
 * view_marks: which readers have had a view of which debate counted today. A reader is kept as
 * an HMAC-SHA-256 of the day and the account or address with the deployment's key (made once,
 * 32 random bytes, in `view_key`), so the collection holds no address, nor a plain hash anyone
 * could compute for every IPv4 address, nor one that links a reader's days. The embedded store
 * takes no TTL index: the past days' marks are deleted by the first mark of a new day.
 */
@Injectable()
export class ViewsRepository implements OnApplicationBootstrap {
  private readonly marks: Model<ViewMarkDocument>;
  private key: Promise<Buffer> | undefined;
  /** The day whose earlier marks this process has deleted. */
  private clearedFor: string | undefined;

  constructor(@Inject(MONGO_CONNECTION) private readonly connection: Connection) {
    this.marks = viewMarkModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.marks.init();
  }

  /** Marks the reader's view of the debate on `now`'s UTC day: false when it was marked already. */
  async markToday(debateId: string, reader: Reader, now: Date): Promise<boolean> {
    const day = now.toISOString().slice(0, 10);
    if (this.clearedFor !== day) {
      await this.marks.deleteMany({ day: { $lt: day } }).exec();
      this.clearedFor = day;
    }
    const who = 'account' in reader ? `account:${reader.account}` : `address:${reader.address}`;
    const hashed = createHmac('sha256', await this.readerKey())
      .update(`${day}\n${who}`)
      .digest('base64url');
    try {
      await this.marks.create({ day, debateId, reader: hashed });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false; // this reader's view counted already today
      throw error;
    }
  }

  /** The deployment's key: made by the first instance that needs it, read by the others. */
  private readerKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const keys = this.connection.collection<ViewKeyDocument>('view_key');
      const made = randomBytes(32).toString('base64');
      try {
        await keys.updateOne({ _id: 'readers' }, { $setOnInsert: { key: made } }, { upsert: true });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error; // another instance made it at the same time
      }
      const stored = await keys.findOne({ _id: 'readers' });
      if (!stored) throw new Error('The readers key is missing');
      return Buffer.from(stored.key, 'base64');
    })();
    this.key.catch(() => {
      this.key = undefined;
    });
    return this.key;
  }
}
