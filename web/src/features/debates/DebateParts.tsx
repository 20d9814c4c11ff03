import type { DebateSpeakerFieldsFragment } from '../../gql/graphql';
import { PERSON_KIND, speakerModel, speakerModelDetails } from './provenance';
import { communityStanceLabel } from './stance';

/** A debate's categories, as chips. */
export function CategoryChips({ categories }: { categories: readonly string[] }) {
  return (
    <ul className="chips" aria-label="Categories">
      {categories.map((category) => (
        <li key={category} className="chip">
          {category}
        </li>
      ))}
    </ul>
  );
}

/**
 * Each speaker's model, position (the community stance label) and style (spec §2 history). The
 * model is what really wrote the speaker's rounds ('Offline speaker' for the offline speaker);
 * `detailed` adds the server's model, the tokens and the failed turns (the debate's page).
 */
export function SpeakerFacts({
  model1,
  model2,
  detailed = false,
}: {
  model1: DebateSpeakerFieldsFragment;
  model2: DebateSpeakerFieldsFragment;
  detailed?: boolean;
}) {
  return (
    <dl className="facts speakers-facts">
      {(
        [
          ['First Speaker', model1],
          ['Second Speaker', model2],
        ] as const
      ).map(([label, model]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>
            {model.writtenBy?.kind === PERSON_KIND ? (
              // A person: who, and their position (no model, and no style they were given).
              <>
                {speakerModelDetails(model)} · Position: {communityStanceLabel(model.stance)}
              </>
            ) : (
              <>
                Model: {detailed ? speakerModelDetails(model) : speakerModel(model)} · Position:{' '}
                {communityStanceLabel(model.stance)} · Style: {model.rhetoricStyle}
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The category filter: All, then the ten categories. */
export function CategorySelect({
  value,
  categories,
  onChange,
}: {
  value: string | null;
  categories: readonly string[];
  onChange: (category: string | null) => void;
}) {
  return (
    <label>
      Category
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">All</option>
        {categories.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** 'Load more' under the last page, while there is a next one. */
export function LoadMore({
  next,
  busy,
  onMore,
}: {
  next: string | null;
  busy: boolean;
  onMore: (after: string) => void;
}) {
  if (!next) return null;
  return (
    <button
      type="button"
      className="button secondary load-more"
      disabled={busy}
      onClick={() => onMore(next)}
    >
      Load more
    </button>
  );
}

/** Where a saved or shared debate is shown: its author stopped it before the end (Stop). */
export function StoppedNote({ stopped }: { stopped: boolean }) {
  return stopped ? <p className="hint stopped-note">Stopped before the end</p> : null;
}
