import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a toast stays (spec §9: 3000 ms for save and share). */
const TOAST_MS = 3000;

/** Green when the text speaks of success or of something saved, else red (spec §8). */
export function toastTone(message: string): 'success' | 'failure' {
  return /success|saved/i.test(message) ? 'success' : 'failure';
}

/** A toast for the page: `show(message)` puts it up for three seconds. */
export function useToast(): { toast: React.ReactNode; show: (message: string) => void } {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((next: string) => {
    clearTimeout(timer.current);
    setMessage(next);
    timer.current = setTimeout(() => setMessage(null), TOAST_MS);
  }, []);
  const toast = (
    <div className="toast-region" role="status" aria-live="polite">
      {message ? <div className={`toast toast-${toastTone(message)}`}>{message}</div> : null}
    </div>
  );
  return { toast, show };
}
