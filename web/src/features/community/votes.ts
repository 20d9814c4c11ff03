import type { VoteKind } from '../../gql/graphql';
import type { VoteCounts } from './community.api';

/** The three votes, in the order cards and pages show them, with the count each adds to. */
export const VOTE_KINDS: ReadonlyArray<{
  readonly kind: VoteKind;
  readonly label: string;
  readonly count: keyof VoteCounts;
}> = [
  { kind: 'FOR', label: 'For', count: 'upvotes' },
  { kind: 'INTERESTING', label: 'Interesting', count: 'interesting' },
  { kind: 'AGAINST', label: 'Against', count: 'downvotes' },
];

const countOf = (kind: VoteKind): keyof VoteCounts =>
  VOTE_KINDS.find((entry) => entry.kind === kind)?.count ?? 'upvotes';

/**
 * The counts once the viewer's vote moves from `before` to `after` (null: none), shown at once
 * while the server counts it, and replaced by what it answers.
 */
export function countsAfterVote(
  counts: VoteCounts,
  before: VoteKind | null,
  after: VoteKind | null,
): VoteCounts {
  const next = {
    upvotes: counts.upvotes,
    downvotes: counts.downvotes,
    interesting: counts.interesting,
  };
  if (before) next[countOf(before)] = Math.max(0, next[countOf(before)] - 1);
  if (after) next[countOf(after)] += 1;
  return next;
}

/** A failed vote or star, shown next to the control, with the action that tries it again. */
export interface CardProblem {
  readonly message: string;
  retry(): void;
}

/** A mutation's message, else `fallback` (never a bare transport error: see app/api). */
export function messageOf(error: unknown, fallback: string): string {
  return error && typeof error === 'object' && 'message' in error && error.message
    ? String(error.message)
    : fallback;
}

export const VOTE_FAILED = 'Your vote could not be counted. Please try again.';
export const STAR_FAILED = 'The star could not be changed. Please try again.';
