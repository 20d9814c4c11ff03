import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a toast stays (spec §9: 3000 ms for save and share). */
const TOAST_MS = 3000;

/** Green when the text speaks of success or of something saved, else red (spec §8). */
export function toastTone(message: string): 'success' | 'failure' {
  return /success|saved/i.test(message) ? 'success' : 'failure';
}

/** A button after a toast's text (Copy link): what it does, and what it says once done. */
export interface ToastAction {
  readonly label: string;
  /** Does the action; answers the words the toast shows in the button's place. */
  run(): Promise<string>;
}

interface Shown {
  readonly message: string;
  readonly action?: ToastAction;
  /** The action's own words, once it has run. */
  readonly done?: string;
}

/**
 * A toast for the page: `show(message)` puts it up for three seconds, `show(message, action)`
 * with a button after its text. The pointer or the focus on it holds it up, so that its button
 * can be reached; it goes three seconds after they leave.
 */
export function useToast(): {
  toast: React.ReactNode;
  show: (message: string, action?: ToastAction) => void;
} {
  const [shown, setShown] = useState<Shown | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const hold = useCallback(() => clearTimeout(timer.current), []);
  const release = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setShown(null), TOAST_MS);
  }, []);
  const show = useCallback(
    (message: string, action?: ToastAction) => {
      setShown(action ? { message, action } : { message });
      release();
    },
    [release],
  );
  const onAction = async (action: ToastAction) => {
    const done = await action.run();
    // Said on the toast that asked, unless another has replaced it meanwhile.
    setShown((current) => (current?.action === action ? { ...current, done } : current));
    release();
  };
  const action = shown?.action;
  const toast = (
    <div className="toast-region" role="status" aria-live="polite">
      {shown ? (
        <div
          className={`toast toast-${toastTone(shown.message)}`}
          onPointerEnter={hold}
          onPointerLeave={release}
          onFocus={hold}
          onBlur={release}
        >
          {shown.message}
          {action &&
            (shown.done ? (
              <span className="toast-done">{shown.done}</span>
            ) : (
              <button type="button" className="toast-action" onClick={() => void onAction(action)}>
                {action.label}
              </button>
            ))}
        </div>
      ) : null}
    </div>
  );
  return { toast, show };
}
