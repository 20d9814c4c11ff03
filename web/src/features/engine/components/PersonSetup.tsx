import { useId } from 'react';

/** Who debates on /engine: two models (as ever), or the user against a model. */
export type EngineMode = 'models' | 'person';

interface ModeChoiceProps {
  readonly mode: EngineMode;
  readonly disabled: boolean;
  /** The choice asked for (a signed-out visitor's 'You against a model' asks them to sign in). */
  onChoose(mode: EngineMode): void;
}

/** The choice above the setup: 'Two models' or 'You against a model'. */
export function ModeChoice({ mode, disabled, onChoose }: ModeChoiceProps) {
  const name = useId();
  return (
    <fieldset className="choice-group mode-choice" disabled={disabled}>
      <legend>Who debates</legend>
      {(
        [
          ['models', 'Two models'],
          ['person', 'You against a model'],
        ] as const
      ).map(([value, label]) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name={name}
            value={value}
            checked={mode === value}
            onChange={() => onChoose(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

interface PersonSetupProps {
  /** The user's side: For the motion, or Against. */
  readonly personFor: boolean;
  /** Whether the user speaks first (First Speaker), or the model does. */
  readonly personOpens: boolean;
  readonly disabled: boolean;
  onSideChange(personFor: boolean): void;
  onOpensChange(personOpens: boolean): void;
}

/** 'You against a model': the user's side and who opens (the model's card is beside it). */
export function PersonSetup({
  personFor,
  personOpens,
  disabled,
  onSideChange,
  onOpensChange,
}: PersonSetupProps) {
  const id = useId();
  const group = (
    legend: string,
    value: boolean,
    labels: readonly [string, string],
    onChange: (value: boolean) => void,
  ) => (
    <fieldset className="choice-group" disabled={disabled}>
      <legend>{legend}</legend>
      {([true, false] as const).map((option, index) => (
        <label key={labels[index]} className="choice">
          <input
            type="radio"
            name={`${id}-${legend}`}
            checked={value === option}
            onChange={() => onChange(option)}
          />
          {labels[index]}
        </label>
      ))}
    </fieldset>
  );
  return (
    <section className="card person-setup" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>You</h2>
      {group('Your side', personFor, ['For', 'Against'], onSideChange)}
      {group('Who opens', personOpens, ['You', 'The model'], onOpensChange)}
    </section>
  );
}
