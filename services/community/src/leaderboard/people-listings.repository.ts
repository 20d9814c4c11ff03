import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import {
  type PeopleListingDocument,
  peopleListingModel,
} from '../schemas/people-listing.schema.js';

/** Who chose to be listed on the People board, and under what name (`people_listings`). */
@Injectable()
export class PeopleListingsRepository implements OnApplicationBootstrap {
  private readonly listings: Model<PeopleListingDocument>;

  constructor(@Inject(MONGO_CONNECTION) connection: Connection) {
    this.listings = peopleListingModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listings.init();
  }

  /** The name the user is listed under; null: not listed. */
  async nameOf(userId: string): Promise<string | null> {
    const found = await this.listings
      .findOne({ _id: userId }, { name: 1 })
      .lean<Pick<PeopleListingDocument, 'name'>>()
      .exec();
    return found?.name ?? null;
  }

  /** Lists the user under `name` (since the first time, when they were listed already). */
  async list(userId: string, name: string, now: Date): Promise<void> {
    await this.listings
      .updateOne(
        { _id: userId },
        { $set: { name }, $setOnInsert: { listedAt: now } },
        { upsert: true },
      )
      .exec();
  }

  /** Takes the user off the board (nothing when they were not on it). */
  async unlist(userId: string): Promise<void> {
    await this.listings.deleteOne({ _id: userId }).exec();
  }

  /** Every listed user's name, by account id: what the People board shows them under. */
  async all(): Promise<Map<string, string>> {
    const found = await this.listings
      .find({}, { name: 1 })
      .lean<Array<Pick<PeopleListingDocument, '_id' | 'name'>>>()
      .exec();
    return new Map(found.map((listing) => [listing._id, listing.name]));
  }
}
