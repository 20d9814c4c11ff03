/** A day as the user's locale writes it in full: '4 December 2026', 'December 4, 2026'. */
export function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

export const NEXT_FREE_DEBATE = 'Your next free debate:';

interface NextFreeDebateProps {
  readonly usage: {
    readonly freeDebatesRemaining: number;
    readonly nextFreeDebateAt: string | null;
  };
}

/**
 * The day the usage service's refill gives a user with no free debate left their next one (its
 * `nextFreeDebateAt`); nothing while one is left or when the refill does not apply.
 */
export function NextFreeDebate({ usage }: NextFreeDebateProps) {
  const { freeDebatesRemaining, nextFreeDebateAt } = usage;
  if (freeDebatesRemaining !== 0 || !nextFreeDebateAt) return null;
  return (
    <span className="next-free-debate">
      {NEXT_FREE_DEBATE} <time dateTime={nextFreeDebateAt}>{longDate(nextFreeDebateAt)}</time>
    </span>
  );
}
