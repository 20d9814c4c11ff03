import { useState } from 'react';
import type { StanceBefore } from '../../gql/graphql';
import { type CommunityDebateArgs, useStandBeforeMutation } from './community.api';
import { messageOf } from './votes';

/** The question a signed-in reader is asked before the rounds are shown. */
const BEFORE_QUESTION = 'Before you read: where do you stand on this motion?';
const BEFORE_HINT =
  'Asked once. Your For or Against vote after reading says where you stand then; the two together show whose minds the debate changed.';
const CHOICES: ReadonlyArray<[StanceBefore, string]> = [
  ['FOR', 'For'],
  ['AGAINST', 'Against'],
  ['UNDECIDED', 'Undecided'],
];

/**
 * Where the reader stands before reading (or Skip), asked once in place of the rounds, on a
 * debate's page (a card of its own) and on an expanded card (`inCard`: a section of it) alike.
 * The answer goes into the cached debate (the mutation's onQueryStarted), so the rounds follow;
 * a refusal says why here.
 */
export function BeforeQuestion({
  args,
  inCard = false,
}: {
  args: CommunityDebateArgs;
  inCard?: boolean;
}) {
  const [standBefore, { isLoading }] = useStandBeforeMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = `before-question-${args.id}`;

  const onAnswer = async (stance: StanceBefore | null) => {
    setProblem(null);
    try {
      await standBefore({ ...args, stance }).unwrap();
    } catch (failure) {
      setProblem(messageOf(failure, 'Your answer could not be recorded. Please try again.'));
    }
  };

  return (
    <section
      className={`${inCard ? 'card-section' : 'card'} before-question`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>{BEFORE_QUESTION}</h2>
      <p className="hint">{BEFORE_HINT}</p>
      <div className="card-actions" role="group" aria-label="Where you stand before reading">
        {CHOICES.map(([stance, label]) => (
          <button
            key={stance}
            type="button"
            className="button"
            disabled={isLoading}
            onClick={() => void onAnswer(stance)}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          className="button secondary"
          disabled={isLoading}
          onClick={() => void onAnswer(null)}
        >
          Skip
        </button>
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
