import { MAX_LOCAL_STARS } from '@debate/contracts/constants';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { useMergeStarsMutation, useToggleStarMutation } from './community.api';

/** The local-storage key of the starred debates (spec §3 'Browser local storage'). */
const STARRED_DEBATES_KEY = 'starredDebates';

function readLocalStars(storage: Pick<Storage, 'getItem'> | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STARRED_DEBATES_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((id): id is string => typeof id === 'string').slice(0, MAX_LOCAL_STARS)
      : [];
  } catch {
    return [];
  }
}

function writeLocalStars(ids: readonly string[]): void {
  try {
    window.localStorage.setItem(STARRED_DEBATES_KEY, JSON.stringify(ids.slice(0, MAX_LOCAL_STARS)));
  } catch {
    // Storage full or blocked: the stars stay for this visit only.
  }
}

/**
 * The viewer's stars. Kept in local storage (spec §4 'Starring'); when signed in, the stars
 * kept there are merged into the account once, and toggles go to the account.
 */
export function useStars() {
  const auth = useAppSelector((state) => state.auth);
  const signedIn = auth.status === 'signedIn';
  const viewer = auth.user?.uid ?? null;
  const [ids, setIds] = useState<readonly string[]>(() =>
    typeof window === 'undefined' ? [] : readLocalStars(window.localStorage),
  );
  const [merge] = useMergeStarsMutation();
  const [toggleOnServer] = useToggleStarMutation();
  const mergedFor = useRef<string | null>(null);

  useEffect(() => {
    const uid = auth.user?.uid ?? null;
    if (!signedIn || !uid || mergedFor.current === uid) return;
    mergedFor.current = uid;
    void merge(readLocalStars(window.localStorage))
      .unwrap()
      .then((all) => {
        setIds(all);
        writeLocalStars(all);
      })
      .catch(() => {
        mergedFor.current = null; // try again on the next render
      });
  }, [signedIn, auth.user?.uid, merge]);

  /**
   * Stars or unstars at once; signed in, the account's answer then stands, and a failure puts
   * the star back as it was and rejects.
   */
  const toggle = useCallback(
    async (debateId: string, starred: boolean): Promise<boolean> => {
      const show = (on: boolean) =>
        setIds((current) => {
          const updated = on
            ? [debateId, ...current.filter((id) => id !== debateId)]
            : current.filter((id) => id !== debateId);
          writeLocalStars(updated);
          return updated;
        });
      show(!starred);
      if (!signedIn) return !starred;
      try {
        const now = await toggleOnServer({
          id: debateId,
          viewer,
          starred: !starred,
        }).unwrap();
        if (now === starred) show(now);
        return now;
      } catch (error) {
        show(starred);
        throw error;
      }
    },
    [signedIn, viewer, toggleOnServer],
  );

  return { ids, toggle, signedIn };
}
