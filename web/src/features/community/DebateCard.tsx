import { Link } from 'react-router';
import { RelativeTime } from '../../components/RelativeTime';
import type { VoteKind } from '../../gql/graphql';
import { CategoryChips, StoppedNote } from '../debates/DebateParts';
import { DebateRounds } from '../debates/DebateRounds';
import { speakerModel } from '../debates/provenance';
import { VerdictLine } from '../debates/Scorecard';
import { communityStanceLabel } from '../debates/stance';
import { useAppSelector } from '../../app/hooks';
import { type CommunityDebate, useCommunityDebateQuery, type VoteCounts } from './community.api';
import { BeforeQuestion } from './BeforeQuestion';
import { MindsChangedLine } from './MindsChangedPanel';
import { type CardProblem, VOTE_KINDS } from './votes';

/** What marks a debate the platform seeded, on its card and its page. */
export const EXAMPLE_NOTE =
  'An example debate, written by the offline speaker to show how one reads.';

/**
 * ' · Rated', or ' · Not rated: …' and why: whether the leaderboard rates the debate, after its
 * shared line; nothing just after it was shared, until the leaderboard has read it.
 */
export function ratingSuffix(rating: { readonly text: string } | null | undefined): string {
  return rating ? ` · ${rating.text}` : '';
}

/** The three vote kinds' shares of all votes, in whole percent. */
export function voteShares(counts: VoteCounts): Record<VoteKind, number> {
  const total = counts.upvotes + counts.downvotes + counts.interesting;
  const share = (count: number) => (total === 0 ? 0 : Math.round((100 * count) / total));
  return {
    FOR: share(counts.upvotes),
    INTERESTING: share(counts.interesting),
    AGAINST: share(counts.downvotes),
  };
}

/**
 * 'Offline speaker (For) vs GPT-4o (Against)': what wrote each speaker's rounds and its
 * position; a debate saved before that was kept shows its catalogue ids.
 */
export function speakersLine(debate: Pick<CommunityDebate, 'model1' | 'model2'>): string {
  const side = (speaker: CommunityDebate['model1']) =>
    `${speakerModel(speaker)} (${communityStanceLabel(speaker.stance)})`;
  return `${side(debate.model1)} vs ${side(debate.model2)}`;
}

/** A failed vote or star, where it failed, with 'Retry'. */
export function ProblemLine({ problem }: { problem: CardProblem }) {
  return (
    <p className="error problem-line" role="alert">
      {problem.message}{' '}
      <button type="button" className="link-button" onClick={problem.retry}>
        Retry
      </button>
    </p>
  );
}

/** The rounds of an expanded card: fetched on first expansion, then from the cache. */
function CardRounds({ debateId }: { debateId: string }) {
  const viewer = useAppSelector((state) => state.auth.user?.uid ?? null);
  const args = { id: debateId, viewer };
  const { data, error, isLoading } = useCommunityDebateQuery(args);
  if (isLoading) return <p role="status">Loading debate rounds...</p>;
  if (error) {
    const notFound = 'code' in error && error.code === 'NOT_FOUND';
    return (
      <p className="error">{notFound ? 'Debate not found.' : 'Error fetching debate rounds.'}</p>
    );
  }
  if (!data) return <p className="error">Debate not found.</p>;
  // A signed-in reader is asked where they stand first, here as on the debate's page.
  if (data.askBefore) return <BeforeQuestion args={args} inCard />;
  return <DebateRounds rounds={data.rounds} sides={data} />;
}

export interface DebateCardProps {
  readonly debate: CommunityDebate;
  readonly starred: boolean;
  readonly expanded: boolean;
  readonly busy: boolean;
  /** A vote or star that failed here, with its retry. */
  readonly problem?: CardProblem | null;
  onToggleExpanded(): void;
  onVote(kind: VoteKind | null): void;
  onToggleStar(): void;
}

/** A ranking card (spec §2): bars, topic, categories, star, votes, the rounds on demand. */
export function DebateCard({
  debate,
  starred,
  expanded,
  busy,
  problem,
  onToggleExpanded,
  onVote,
  onToggleStar,
}: DebateCardProps) {
  const { myVote } = debate;
  const shares = voteShares(debate);
  const headingId = `debate-${debate.id}`;
  return (
    <article className="card debate-card" aria-labelledby={headingId}>
      <div className="vote-bars" aria-label="Votes">
        {VOTE_KINDS.map(({ kind, label }) => (
          <div key={kind} className={`vote-bar vote-bar-${kind.toLowerCase()}`}>
            <span className="vote-bar-label">
              {label} {shares[kind]}%
            </span>
            <span className="vote-bar-track">
              <span className="vote-bar-fill" style={{ width: `${shares[kind]}%` }} />
            </span>
          </div>
        ))}
      </div>
      <div className="debate-card-head">
        <h3 id={headingId}>
          <Link to={`/community/debate/${encodeURIComponent(debate.id)}`}>{debate.topic}</Link>
        </h3>
        <button
          type="button"
          className={`star-toggle${starred ? ' starred' : ''}`}
          aria-pressed={starred}
          aria-label={starred ? 'Unstar debate' : 'Star debate'}
          onClick={onToggleStar}
        >
          {starred ? '★' : '☆'}
        </button>
      </div>
      <CategoryChips categories={debate.categories} />
      {debate.example && <p className="hint example-line">{EXAMPLE_NOTE}</p>}
      <p className="hint speakers-line">{speakersLine(debate)}</p>
      <VerdictLine verdict={debate.verdict} />
      <StoppedNote stopped={debate.stopped} />
      <MindsChangedLine minds={debate.mindsChanged} />
      <div className="vote-buttons" role="group" aria-label="Vote">
        {VOTE_KINDS.map(({ kind, label, count }) => (
          <button
            key={kind}
            type="button"
            className={`vote-button${myVote === kind ? ' voted' : ''}`}
            aria-pressed={myVote === kind}
            disabled={busy}
            onClick={() => onVote(myVote === kind ? null : kind)}
          >
            {label} {debate[count]}
          </button>
        ))}
      </div>
      {problem && <ProblemLine problem={problem} />}
      <div className="debate-card-foot">
        <p className="shared-line">
          Shared <RelativeTime iso={debate.sharedAt} />
          {ratingSuffix(debate.rating)}
        </p>
        <button
          type="button"
          className="link-button"
          aria-expanded={expanded}
          onClick={onToggleExpanded}
        >
          {expanded ? 'Hide Debate' : 'View Debate'}
        </button>
      </div>
      {expanded && <CardRounds debateId={debate.id} />}
    </article>
  );
}
