import { useId, useState } from 'react';
import type { SpeakerSettingsInput } from '../../../gql/graphql';
import { stanceBand } from '../../debates/sides';
import { choiceOf, rhetoricStyleChoices } from '../choices';
import { type CatalogModel, chosenModel, modelOptionText } from '../models';
import { ANY_STANCE, type StanceRange, stanceLabel } from '../stance';
import { SectionToggle } from './SectionToggle';

interface SpeakerCardProps {
  readonly name: 'First Speaker' | 'Second Speaker';
  readonly settings: SpeakerSettingsInput;
  /** The catalogue's models; the first is the default. */
  readonly models: readonly CatalogModel[];
  readonly rhetoricStyles: readonly string[];
  readonly disabled: boolean;
  /** The stances the slider offers; every one (-1 to 1) unless the speaker's side is set. */
  readonly stanceRange?: StanceRange;
  onChange(settings: SpeakerSettingsInput): void;
}

/** A speaker's card: the stance slider, and its collapsible 'Settings'. */
export function SpeakerCard({
  name,
  settings,
  models,
  rhetoricStyles,
  disabled,
  stanceRange = ANY_STANCE,
  onChange,
}: SpeakerCardProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const label = stanceLabel(settings.stance);
  const style = choiceOf(rhetoricStyleChoices, settings.rhetoricStyle);
  return (
    <section
      className={`card speaker-card stance-${stanceBand(settings.stance)}`}
      aria-labelledby={`${id}-name`}
    >
      <h2 id={`${id}-name`}>{name}</h2>
      <label htmlFor={`${id}-stance`}>
        Stance: <strong>{label}</strong> ({settings.stance.toFixed(1)})
      </label>
      <input
        id={`${id}-stance`}
        type="range"
        min={stanceRange.min}
        max={stanceRange.max}
        step={0.1}
        value={settings.stance}
        disabled={disabled}
        aria-valuetext={`${label} (${settings.stance.toFixed(1)})`}
        onChange={(event) =>
          onChange({ ...settings, stance: Math.round(Number(event.target.value) * 10) / 10 })
        }
      />
      <h3 className="section-heading">
        <SectionToggle open={open} controls={`${id}-settings`} onToggle={() => setOpen(!open)}>
          Settings
        </SectionToggle>
      </h3>
      {open && (
        <div id={`${id}-settings`} className="speaker-settings">
          <label htmlFor={`${id}-model`}>Model</label>
          <select
            id={`${id}-model`}
            value={chosenModel(models, settings.model)}
            disabled={disabled}
            onChange={(event) => onChange({ ...settings, model: event.target.value })}
          >
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {modelOptionText(model)}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-style`}>Rhetoric style</label>
          <select
            id={`${id}-style`}
            value={settings.rhetoricStyle}
            disabled={disabled}
            aria-describedby={style.description ? `${id}-style-description` : undefined}
            onChange={(event) => onChange({ ...settings, rhetoricStyle: event.target.value })}
          >
            {rhetoricStyles.map((value) => (
              <option key={value} value={value}>
                {choiceOf(rhetoricStyleChoices, value).name}
              </option>
            ))}
          </select>
          {style.description && (
            <p id={`${id}-style-description`} className="hint setting-description">
              {style.description}
            </p>
          )}
          <label htmlFor={`${id}-personality`}>Personality hints</label>
          <textarea
            id={`${id}-personality`}
            value={settings.personality}
            maxLength={500}
            disabled={disabled}
            placeholder="e.g. a retired judge who loves analogies"
            onChange={(event) => onChange({ ...settings, personality: event.target.value })}
          />
        </div>
      )}
    </section>
  );
}
