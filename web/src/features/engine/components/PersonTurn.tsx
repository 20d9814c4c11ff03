import { useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { sideOf, type SideStances, stanceOf, turnClasses } from '../../debates/sides';
import { type AwaitingTurn, submitTurn, type Turn } from '../engine.slice';
import {
  readTurnDraft,
  timeLeftText,
  wordCountText,
  withinLimits,
  writeTurnDraft,
} from '../person';
import { stanceLabel } from '../stance';

/** The time now, again every second while the component is shown. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

interface PersonTurnProps {
  readonly runId: string;
  readonly awaiting: AwaitingTurn;
  /** The other side's last turn, which the person answers; null when they open. */
  readonly answering: Turn | null;
  readonly stances: SideStances | null;
}

/**
 * The person's turn: the model's last turn beside the editor (above it on a phone), the live
 * word count against the round's limits, the time left, and Submit turn. What is typed is kept
 * in local storage as it is typed, and comes back after a reload.
 */
export function PersonTurn({ runId, awaiting, answering, stances }: PersonTurnProps) {
  const dispatch = useAppDispatch();
  const { submitting, refusal } = useAppSelector((state) => state.engine);
  const [text, setText] = useState(() => readTurnDraft(runId, awaiting.turn));
  const now = useNow();
  const id = useId();
  const editor = useRef<HTMLTextAreaElement>(null);
  // The editor is what there is to do next: a keyboard lands in it.
  useEffect(() => {
    editor.current?.focus();
  }, []);
  const { minWords, maxWords } = awaiting;
  const fits = withinLimits(text, minWords, maxWords);
  const side = sideOf(awaiting.speaker);
  const stance = stanceOf(side, stances);
  const theirs = answering && stanceOf(sideOf(answering.speaker), stances);
  return (
    <section className="person-turn" aria-label={`Your turn: ${awaiting.roundTitle}`}>
      {answering && (
        <article
          className={`${turnClasses(sideOf(answering.speaker), theirs)} answering`}
          aria-labelledby={`${id}-theirs`}
        >
          <h4 id={`${id}-theirs`}>
            {answering.speaker}’s last turn
            {theirs !== null && <span className="side-label"> · {stanceLabel(theirs)}</span>}
          </h4>
          <p className="turn-text">{answering.text}</p>
        </article>
      )}
      <div className={`${turnClasses(side, stance)} person-editor`}>
        <label htmlFor={`${id}-text`} className="person-editor-label">
          Your turn: {awaiting.roundTitle}
        </label>
        <p className="hint">
          {awaiting.speaker}
          {stance !== null && ` · ${stanceLabel(stance)}`}
        </p>
        <textarea
          id={`${id}-text`}
          ref={editor}
          rows={12}
          value={text}
          // Sent, the turn is the run's until it confirms it: what is shown is what it gets.
          readOnly={submitting}
          aria-describedby={`${id}-count ${id}-time`}
          onChange={(event) => {
            setText(event.target.value);
            writeTurnDraft(runId, awaiting.turn, event.target.value);
          }}
        />
        <div className="person-editor-facts">
          <p id={`${id}-count`} className={`hint word-count${fits ? '' : ' out-of-limits'}`}>
            {wordCountText(text, minWords, maxWords)}
          </p>
          {Number.isFinite(awaiting.deadline) && (
            <p id={`${id}-time`} className="hint time-left">
              {timeLeftText(awaiting.deadline, now)}
            </p>
          )}
        </div>
        {refusal && (
          <p className="error" role="alert">
            {refusal}
          </p>
        )}
        <button
          type="button"
          className="button"
          disabled={!fits || submitting}
          onClick={() => void dispatch(submitTurn({ runId, turn: awaiting.turn, text }))}
        >
          {submitting ? 'Submitting…' : 'Submit turn'}
        </button>
      </div>
    </section>
  );
}
