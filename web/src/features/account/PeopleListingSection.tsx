import { MAX_PERSON_NAME_LENGTH } from '@debate/contracts/constants';
import { type FormEvent, useState } from 'react';
import type { GraphqlFailure } from '../../app/api';
import {
  type PeopleListing,
  usePeopleListingQuery,
  useSetPeopleListingMutation,
} from './people-listing.api';

export const LISTING_UNREADABLE = 'Whether you are listed could not be read just now.';
const SAVE_FAILED = 'Your choice could not be saved.';

/** 'You are listed as Ada.' or 'You are not listed.': the listing as stored. */
function listingStatus(listing: PeopleListing): string {
  return listing.listed && listing.name
    ? `You are listed as ${listing.name}.`
    : 'You are not listed.';
}

/** How many of the user's shared debates against a model the board has rated, and the bar. */
export function ratedStatus(ratedDebates: number): string {
  const verb = ratedDebates === 1 ? 'is' : 'are';
  return `${ratedDebates} of your shared debates against a model ${verb} rated; you appear once three are.`;
}

interface FormProps {
  readonly listing: PeopleListing;
  readonly displayName: string | null;
}

/** The choice and the name, as stored when the page opened; Save stores them. */
function ListingForm({ listing, displayName }: FormProps) {
  const [listed, setListed] = useState(listing.listed);
  const [name, setName] = useState(listing.name ?? displayName ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const [save, { isLoading }] = useSetPeopleListingMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    try {
      // Unlisting keeps no name: the board shows none while the user is not listed.
      await save({ listed, name: listed ? name.trim() : null }).unwrap();
    } catch (error) {
      setFailure((error as Partial<GraphqlFailure>).message ?? SAVE_FAILED);
    }
  };

  return (
    <form className="people-listing" onSubmit={(event) => void submit(event)}>
      {failure && (
        <div className="error-box" role="alert">
          <p>{failure}</p>
        </div>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={listed}
          onChange={(event) => setListed(event.target.checked)}
        />
        List me on the People board
      </label>
      <label htmlFor="people-listing-name">Name on the board</label>
      <input
        id="people-listing-name"
        type="text"
        value={name}
        required={listed}
        maxLength={MAX_PERSON_NAME_LENGTH}
        autoComplete="nickname"
        onChange={(event) => setName(event.target.value)}
      />
      <button type="submit" className="button" disabled={isLoading}>
        Save
      </button>
    </form>
  );
}

/**
 * Whether the user's own debates against a model are rated by name on the leaderboard's People
 * board (off until they choose it; their side counts in the pooled People row either way).
 */
export function PeopleListingSection({ displayName }: { displayName: string | null }) {
  const { data: listing, error } = usePeopleListingQuery(undefined);
  return (
    <section className="card" aria-labelledby="people-listing-heading">
      <h2 id="people-listing-heading">People board</h2>
      {error ? (
        <p className="hint">{LISTING_UNREADABLE}</p>
      ) : !listing ? (
        <p className="hint">…</p>
      ) : (
        <>
          <ListingForm listing={listing} displayName={displayName} />
          <div role="status" className="people-listing-status">
            <p>{listingStatus(listing)}</p>
            <p className="hint">{ratedStatus(listing.ratedDebates)}</p>
          </div>
        </>
      )}
    </section>
  );
}
