import { roundTitles } from '@debate/contracts/constants';
import { useState } from 'react';
import type { DebateRoundFieldsFragment, DebateSpeakerFieldsFragment } from '../../gql/graphql';
import { roundProvenance } from './provenance';
import { sideOf, stanceOf, turnClasses } from './sides';
import { TeamNotesView } from './team-notes';
import { communityStanceLabel } from './stance';

/** The two speakers of a debate, whose positions head and colour their turns. */
export interface DebateSides {
  readonly model1: Pick<DebateSpeakerFieldsFragment, 'stance'>;
  readonly model2: Pick<DebateSpeakerFieldsFragment, 'stance'>;
}

function RoundView({ round, sides }: { round: DebateRoundFieldsFragment; sides: DebateSides }) {
  const [full, setFull] = useState(false);
  const side = sideOf(round.speaker);
  const stance = stanceOf(side, { first: sides.model1.stance, second: sides.model2.stance });
  return (
    <article
      className={turnClasses(side, stance)}
      aria-label={`Round ${round.round} - ${round.speaker}`}
    >
      <h4>
        {round.speaker}
        {stance !== null && <span className="side-label"> · {communityStanceLabel(stance)}</span>}
      </h4>
      <p className="turn-text">{full ? round.text : round.summary}</p>
      {round.writtenBy && <p className="hint provenance">{roundProvenance(round.writtenBy)}</p>}
      {round.team && <TeamNotesView team={round.team} />}
      <button type="button" className="link-button" onClick={() => setFull(!full)}>
        {full ? 'Show Less' : 'Show More'}
      </button>
    </article>
  );
}

/**
 * A saved or shared debate's rounds, under their titles ('Round 1: Constructive Arguments'),
 * each turn headed by its speaker and position and in its stance's colour (as on the engine's
 * speaker cards): the summary, and the full text on Show More.
 */
export function DebateRounds({
  rounds,
  sides,
}: {
  rounds: readonly DebateRoundFieldsFragment[];
  sides: DebateSides;
}) {
  if (rounds.length === 0) return <p>No rounds found for this debate.</p>;
  const groups = new Map<number, DebateRoundFieldsFragment[]>();
  for (const round of rounds) groups.set(round.round, [...(groups.get(round.round) ?? []), round]);
  return (
    <div className="rounds">
      {[...groups.entries()].map(([number, turns]) => {
        const title = roundTitles[number - 1];
        const heading = title ? `Round ${number}: ${title}` : `Round ${number}`;
        return (
          <section key={number} className="round" aria-label={heading}>
            <h3>{heading}</h3>
            {turns.map((round) => (
              <RoundView key={`${round.round}-${round.speaker}`} round={round} sides={sides} />
            ))}
          </section>
        );
      })}
    </div>
  );
}
