import { countWords } from '@debate/contracts/constants';

/**
 * A person's side of a debate against a model, as the engine shows it: the words their turn
 * has against the round's limits, the time left, and the draft kept in the browser's storage so
 * that a reload, a lost connection or a closed tab loses nothing typed.
 */

/** '12 words (40 to 400)': what the editor's live count says. */
export function wordCountText(text: string, minWords: number, maxWords: number): string {
  const words = countWords(text);
  return `${words} ${words === 1 ? 'word' : 'words'} (${minWords} to ${maxWords})`;
}

/** Whether a turn of `text` is within the round's limits (the run refuses it otherwise). */
export function withinLimits(text: string, minWords: number, maxWords: number): boolean {
  const words = countWords(text);
  return words >= minWords && words <= maxWords;
}

/** What is left until `deadline` (ms since the epoch): '14:05 left', '0:00 left' once past. */
export function timeLeftText(deadline: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')} left`;
}

/**
 * The run ended because its person did not write their turn in time: the minutes are the run's
 * own wait (from the turn's start to its deadline), not a number of the page's.
 */
export function timedOutText(waitedMs: number): string {
  const minutes = Math.max(1, Math.round(waitedMs / 60_000));
  return `This debate waited ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} for your turn and ended. What was written is kept.`;
}

const DRAFT_PREFIX = 'debate-draft:';

/** Where the draft of `turn` of run `runId` is kept. */
export function draftKey(runId: string, turn: number): string {
  return `${DRAFT_PREFIX}${runId}:${turn}`;
}

/** The browser's local storage, where there is one (it outlives the tab, unlike the session's). */
export function localStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** The draft kept for `turn` of `runId`, or '' (never throws). */
export function readTurnDraft(runId: string, turn: number, storage = localStore()): string {
  try {
    return storage?.getItem(draftKey(runId, turn)) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the draft (a full storage or a private window's refusal loses only the copy). */
export function writeTurnDraft(runId: string, turn: number, text: string, storage = localStore()) {
  try {
    storage?.setItem(draftKey(runId, turn), text);
  } catch {
    // The editor still holds the text.
  }
}

/** Forgets every draft kept for `runId` (its turn accepted, or the run over). */
export function removeTurnDrafts(runId: string, storage = localStore()) {
  removeDrafts(`${DRAFT_PREFIX}${runId}:`, storage);
}

/** Forgets every draft of every run (a sign-out: the next user of the browser sees none). */
export function removeEveryTurnDraft(storage = localStore()) {
  removeDrafts(DRAFT_PREFIX, storage);
}

function removeDrafts(prefix: string, storage: Storage | undefined) {
  try {
    if (!storage) return;
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Nothing depends on it.
  }
}
