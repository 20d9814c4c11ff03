import { useState } from 'react';
import { failedTurnText, turnProvenance } from '../../debates/provenance';
import { sideOf } from '../../debates/sides';
import { TeamNotesView } from '../../debates/team-notes';
import type { Turn } from '../engine.slice';

/** What wrote a completed turn, or that its model failed it; null while nothing is known. */
function turnLine(turn: Turn): string | null {
  if (turn.writtenBy) {
    return turn.failed ? failedTurnText(turn.writtenBy) : turnProvenance(turn.writtenBy);
  }
  if (turn.failed && turn.model) return failedTurnText(turn.model);
  return null;
}

/** One speaker's turn: the summary, or with Show More the full text; the text as it streams. */
function TurnView({ turn }: { turn: Turn }) {
  const [full, setFull] = useState(false);
  const line = turn.complete ? turnLine(turn) : null;
  return (
    <article
      className={`turn side-${sideOf(turn.speaker)}${turn.failed ? ' turn-failed' : ''}`}
      aria-label={`${turn.speaker}, ${turn.roundTitle}`}
    >
      <h4>{turn.speaker}</h4>
      {!turn.complete ? (
        <p className="turn-text streaming" aria-live="off">
          {turn.text}
        </p>
      ) : (
        <>
          <p className="turn-text">{full ? turn.text : turn.summary}</p>
          {line && <p className="hint provenance">{line}</p>}
          {turn.team && <TeamNotesView team={turn.team} />}
          <button type="button" className="link-button" onClick={() => setFull(!full)}>
            {full ? 'Show Less' : 'Show More'}
          </button>
        </>
      )}
    </article>
  );
}

/** The results, per round (the moderator's opening and closing around them). */
export function RoundResults({ turns }: { turns: readonly Turn[] }) {
  const groups = new Map<string, Turn[]>();
  for (const turn of turns) {
    const key =
      turn.round >= 1 && turn.round <= 3
        ? `Round ${turn.round}: ${turn.roundTitle}`
        : `Moderator: ${turn.roundTitle}`;
    groups.set(key, [...(groups.get(key) ?? []), turn]);
  }
  return (
    <div className="results">
      {[...groups.entries()].map(([title, group]) => (
        <section key={title} className="round" aria-label={title}>
          <h3>{title}</h3>
          {group.map((turn) => (
            <TurnView key={turn.turn} turn={turn} />
          ))}
        </section>
      ))}
    </div>
  );
}
