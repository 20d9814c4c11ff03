import { type Connection, type Model, Schema } from 'mongoose';

/**
 * A user listed on the People board, keyed by their account's id: present means listed, under
 * `name` (its board's rows then show them once they have three rated debates).
 */
export interface PeopleListingDocument {
  _id: string;
  name: string;
  listedAt: Date;
}

const peopleListingSchema = new Schema<PeopleListingDocument>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    listedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

/** The `people_listings` collection on the community's connection. */
export function peopleListingModel(connection: Connection): Model<PeopleListingDocument> {
  return connection.model<PeopleListingDocument>(
    'PeopleListing',
    peopleListingSchema,
    'people_listings',
  );
}
