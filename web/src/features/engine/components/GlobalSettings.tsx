import { useState } from 'react';
import { choiceOf, debateFormatChoices, MODERATOR_DESCRIPTION } from '../choices';
import { SectionToggle } from './SectionToggle';

interface GlobalSettingsProps {
  readonly debateFormat: string;
  /** The catalogue's formats. */
  readonly debateFormats: readonly string[];
  readonly moderatorEnabled: boolean;
  readonly disabled: boolean;
  onDebateFormatChange(debateFormat: string): void;
  onModeratorChange(moderatorEnabled: boolean): void;
}

/** The collapsible 'Global Settings': the debate format and the moderator (spec §2). */
export function GlobalSettings({
  debateFormat,
  debateFormats,
  moderatorEnabled,
  disabled,
  onDebateFormatChange,
  onModeratorChange,
}: GlobalSettingsProps) {
  const [open, setOpen] = useState(false);
  const format = choiceOf(debateFormatChoices, debateFormat);
  return (
    <section className="card settings-card" aria-labelledby="global-settings">
      <h2 className="section-heading">
        <SectionToggle
          id="global-settings"
          open={open}
          controls="global-settings-panel"
          onToggle={() => setOpen(!open)}
        >
          Global Settings
        </SectionToggle>
      </h2>
      {open && (
        <div id="global-settings-panel" className="speaker-settings">
          <label htmlFor="debate-format">Debate format</label>
          <select
            id="debate-format"
            value={debateFormat}
            disabled={disabled}
            aria-describedby={format.description ? 'debate-format-description' : undefined}
            onChange={(event) => onDebateFormatChange(event.target.value)}
          >
            {debateFormats.map((value) => (
              <option key={value} value={value}>
                {choiceOf(debateFormatChoices, value).name}
              </option>
            ))}
          </select>
          {format.description && (
            <p id="debate-format-description" className="hint setting-description">
              {format.description}
            </p>
          )}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={moderatorEnabled}
              disabled={disabled}
              aria-describedby="moderator-description"
              onChange={(event) => onModeratorChange(event.target.checked)}
            />
            Moderator
          </label>
          <p id="moderator-description" className="hint setting-description">
            {MODERATOR_DESCRIPTION}
          </p>
        </div>
      )}
    </section>
  );
}
