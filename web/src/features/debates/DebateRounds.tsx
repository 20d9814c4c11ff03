import { useState } from 'react';
import type { DebateRoundFieldsFragment } from '../../gql/graphql';
import { roundProvenance } from './provenance';

function RoundView({ round }: { round: DebateRoundFieldsFragment }) {
  const [full, setFull] = useState(false);
  const title = `Round ${round.round} - ${round.speaker}`;
  return (
    <article className="turn" aria-label={title}>
      <h4>{title}</h4>
      <p className="turn-text">{full ? round.text : round.summary}</p>
      {round.writtenBy && <p className="hint provenance">{roundProvenance(round.writtenBy)}</p>}
      <button type="button" className="link-button" onClick={() => setFull(!full)}>
        {full ? 'Show Less' : 'Show More'}
      </button>
    </article>
  );
}

/** A saved or shared debate's rounds: each turn's summary, and its full text on Show More. */
export function DebateRounds({ rounds }: { rounds: readonly DebateRoundFieldsFragment[] }) {
  if (rounds.length === 0) return <p>No rounds found for this debate.</p>;
  return (
    <div className="rounds">
      {rounds.map((round) => (
        <RoundView key={`${round.round}-${round.speaker}`} round={round} />
      ))}
    </div>
  );
}
