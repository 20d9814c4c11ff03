import { useEffect, useLayoutEffect, useRef } from 'react';
import { type Location, useLocation, useNavigationType } from 'react-router';

/** How long a position coming back waits for its page to grow tall enough (code, data). */
const RESTORE_FOR_MS = 2_000;

/** Where the positions wait out a reload, or a visit to another site and Back. */
const STORAGE_KEY = 'scrollPositions';

/** The entries whose positions are kept (the latest): enough for any Back. */
const KEPT = 100;

/**
 * What a history entry's place is kept under: its key, which the router gives every entry it
 * makes (a push, a replace) and a reload keeps; an entry it did not make (the first landing, a
 * fragment the browser followed) is 'default' for all, and told apart by its address.
 */
function entryOf(location: Location): string {
  return location.key === 'default'
    ? `${location.pathname}${location.search}${location.hash}`
    : location.key;
}

/** Whether this document was opened by a reload, or by Back or Forward from another site. */
function revisited(): boolean {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'reload' || navigation?.type === 'back_forward';
}

/** What the reader does to take the scrolling over from a restoration still under way. */
const READER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

function loadPositions(): Map<string, number> {
  try {
    const saved: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(saved)) return new Map();
    return new Map(
      saved.filter(
        (entry): entry is [string, number] =>
          Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
      ),
    );
  } catch {
    return new Map();
  }
}

function savePositions(positions: Map<string, number>): void {
  const latest = [...positions].slice(-KEPT);
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(latest));
  } catch {
    // Storage full or blocked: a reload opens at the top, nothing worse.
  }
}

function scrollToY(top: number): void {
  // Instant: the page is new, not moved.
  window.scrollTo({ top, left: 0, behavior: 'instant' });
}

/**
 * Scrolls back to `top` once the page is tall enough for it: the page comes back from the
 * cache at once, but its lazy code or a list may take a few frames. Returns what stops it.
 */
function restore(top: number): () => void {
  const deadline = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of READER_INPUT) window.removeEventListener(type, stop);
  };
  const step = () => {
    scrollToY(top);
    if (Math.abs(window.scrollY - top) < 1 || performance.now() > deadline) stop();
    else frame = requestAnimationFrame(step);
  };
  for (const type of READER_INPUT) window.addEventListener(type, stop, { passive: true });
  step();
  return stop;
}

/**
 * Where the window is scrolled on a change of page (the router keeps the document, so the
 * browser keeps the old scroll unless told): a new page opens at its top (or at the element
 * its hash names); Back and Forward go back to where the reader was on that entry. A change
 * of the query string or the hash on the same page (the forum's filters) keeps the place: it
 * is the same page, seen another way.
 *
 * The browser's own restoration is off ('manual'): it acts when the entry changes, before the
 * page it comes back to is rendered, and would land short. Positions are remembered as the
 * reader scrolls, by history entry (entryOf), and kept in session storage when the document
 * goes away, so that a reload comes back to its place too.
 */
export function usePageScroll(): void {
  const location = useLocation();
  const action = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  positions.current ??= loadPositions();
  const shown = useRef<{ readonly entry: string; readonly pathname: string } | null>(null);
  const restoring = useRef<(() => void) | null>(null);

  useEffect(() => {
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    // Kept as it happens: by the time the next page renders, a shorter one has moved it.
    const remember = () => {
      if (!shown.current || !positions.current) return;
      // Last written, last kept (savePositions keeps the latest).
      positions.current.delete(shown.current.entry);
      positions.current.set(shown.current.entry, window.scrollY);
    };
    const save = () => {
      if (positions.current) savePositions(positions.current);
    };
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = before;
    };
  }, []);

  // Before the browser paints the new page: it never shows at the old page's place.
  useLayoutEffect(() => {
    const before = shown.current;
    const entry = entryOf(location);
    // Once per entry: StrictMode runs this twice on mount, the second time for the same one.
    if (before?.entry === entry) return;
    shown.current = { entry, pathname: location.pathname };
    // A restoration still under way belongs to the page left.
    restoring.current?.();
    restoring.current = null;
    // Back and Forward, and the first page when it is a reload or Back from another site, come
    // back to their place; a fragment the browser followed on this page (the skip link) is
    // where the browser scrolled to.
    if (before === null || action === 'POP') {
      const returning =
        before === null ? revisited() : !(location.hash && before.pathname === location.pathname);
      const saved = returning ? positions.current?.get(entry) : undefined;
      if (saved !== undefined) restoring.current = restore(saved);
      // A page left without being scrolled has no position kept (no scroll event came): it was
      // at its top, where it opened.
      else if (returning && before !== null && before.pathname !== location.pathname) scrollToY(0);
      return;
    }
    if (before.pathname === location.pathname) return;
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target) target.scrollIntoView();
    else scrollToY(0);
  }, [location, action]);
}
