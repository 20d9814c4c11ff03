import { useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { failedTurnText, PERSON_KIND, turnProvenance } from '../../debates/provenance';
import { sideOf, type SideStances, stanceOf, turnClasses } from '../../debates/sides';
import { TeamNotesView } from '../../debates/team-notes';
import type { Turn } from '../engine.slice';
import { stanceLabel } from '../stance';
import { PersonTurn } from './PersonTurn';

/** What wrote a completed turn, or that its model failed it; null while nothing is known. */
function turnLine(turn: Turn): string | null {
  if (turn.writtenBy) {
    return turn.failed ? failedTurnText(turn.writtenBy) : turnProvenance(turn.writtenBy);
  }
  if (turn.failed && turn.model) return failedTurnText(turn.model);
  return null;
}

interface TurnViewProps {
  readonly turn: Turn;
  /** The last turn, finished: it stays open, for the reader to finish it, until the next starts. */
  readonly latest: boolean;
  readonly stances: SideStances | null;
}

/**
 * One speaker's turn, headed by its speaker and side ('First Speaker · For'), in its stance's
 * colour: the text as it streams; finished, the summary, or with Show More the full text.
 */
function TurnView({ turn, latest, stances }: TurnViewProps) {
  // What the reader chose with Show More / Show Less; until then the latest turn is open.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const full = chosen ?? latest;
  const line = turn.complete ? turnLine(turn) : null;
  const side = sideOf(turn.speaker);
  const stance = stanceOf(side, stances);
  return (
    <article
      className={`${turnClasses(side, stance)}${turn.failed ? ' turn-failed' : ''}`}
      aria-label={`${turn.speaker}, ${turn.roundTitle}`}
    >
      <h4>
        {turn.speaker}
        {(turn.writtenBy ?? turn.model)?.kind === PERSON_KIND && ' (you)'}
        {stance !== null && <span className="side-label"> · {stanceLabel(stance)}</span>}
      </h4>
      {!turn.complete ? (
        <p className="turn-text streaming" aria-live="off">
          {turn.text}
        </p>
      ) : (
        <>
          <p className="turn-text">{full ? turn.text : turn.summary}</p>
          {line && <p className="hint provenance">{line}</p>}
          {turn.team && <TeamNotesView team={turn.team} />}
          <button type="button" className="link-button" onClick={() => setChosen(!full)}>
            {full ? 'Show Less' : 'Show More'}
          </button>
        </>
      )}
    </article>
  );
}

/** The results, per round (the moderator's opening and closing around them). */
export function RoundResults({ turns }: { turns: readonly Turn[] }) {
  const { stances, awaiting, runId } = useAppSelector((state) => state.engine);
  const last = turns.at(-1);
  // The person answers the other side's last turn (none when they open).
  const answering =
    awaiting &&
    turns.findLast(
      (turn) =>
        turn.complete &&
        sideOf(turn.speaker) !== 'moderator' &&
        sideOf(turn.speaker) !== sideOf(awaiting.speaker),
    );
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
          {group.map((turn) =>
            awaiting?.turn === turn.turn && runId ? (
              <PersonTurn
                key={turn.turn}
                runId={runId}
                awaiting={awaiting}
                answering={answering ?? null}
                stances={stances}
              />
            ) : (
              <TurnView
                key={turn.turn}
                turn={turn}
                latest={turn === last && turn.complete}
                stances={stances}
              />
            ),
          )}
        </section>
      ))}
    </div>
  );
}
