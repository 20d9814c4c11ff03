import { useState } from 'react';
import { useToast } from '../../../components/Toast';
import { useAppDispatch } from '../../../app/hooks';
import { useSaveDebateMutation } from '../../debates/debates.api';
import { runSaved } from '../engine.slice';

const SAVE_SUCCESS = 'Debate saved to your history!';
const SAVE_FAILURE = 'Failed to save debate. Please try again.';
const MAX_CATEGORIES = 3;
/** Not the spec's: over a stopped debate's panel. */
const STOPPED_NOTE = 'It is saved as far as it went, marked as stopped before the end.';

/**
 * 'Save Your Debate' (spec §2, §4 'Saving'): one to three categories, then not saved → saving
 * → saved, with a toast either way. Saving keeps the debate private; sharing is in the history.
 */
export function SavePanel({
  runId,
  categories,
  stopped = false,
}: {
  runId: string;
  categories: readonly string[];
  /** The run was stopped before its end: it is saved as it is, marked stopped. */
  stopped?: boolean;
}) {
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const [state, setState] = useState<'not saved' | 'saving' | 'saved'>('not saved');
  const [save] = useSaveDebateMutation();
  const dispatch = useAppDispatch();
  const { toast, show } = useToast();
  const full = chosen.length >= MAX_CATEGORIES;

  const toggle = (category: string) =>
    setChosen((current) =>
      current.includes(category)
        ? current.filter((name) => name !== category)
        : current.length < MAX_CATEGORIES
          ? [...current, category]
          : current,
    );

  const onSave = async () => {
    if (state !== 'not saved' || chosen.length === 0) return;
    setState('saving');
    try {
      await save({ runId, categories: chosen }).unwrap();
      setState('saved');
      dispatch(runSaved(runId));
      show(SAVE_SUCCESS);
    } catch {
      setState('not saved');
      show(SAVE_FAILURE);
    }
  };

  return (
    <section className="card save-panel" aria-labelledby="save-heading">
      <h2 id="save-heading">Save Your Debate</h2>
      {stopped && <p className="hint">{STOPPED_NOTE}</p>}
      <p className="hint">
        Choose up to {MAX_CATEGORIES} categories ({chosen.length} of {MAX_CATEGORIES} chosen).
      </p>
      <div className="category-choices" role="group" aria-label="Categories">
        {categories.map((category) => {
          const selected = chosen.includes(category);
          const dimmed = full && !selected;
          return (
            <button
              key={category}
              type="button"
              className={`chip-toggle${selected ? ' selected' : ''}${dimmed ? ' dimmed' : ''}`}
              aria-pressed={selected}
              aria-disabled={dimmed || state !== 'not saved'}
              onClick={() => !dimmed && state === 'not saved' && toggle(category)}
            >
              {category}
            </button>
          );
        })}
      </div>
      <button
        type="button"
        className={`button${state === 'saved' ? ' success' : ''}`}
        disabled={state !== 'not saved' || chosen.length === 0}
        onClick={() => void onSave()}
      >
        {state === 'saved' ? 'Debate Saved' : state === 'saving' ? 'Saving...' : 'Save Debate'}
      </button>
      {toast}
    </section>
  );
}
