import { useState } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { SignInDialog } from '../../components/SignInDialog';
import type { RankingPeriod, RankingSort, VoteKind } from '../../gql/graphql';
import { CategorySelect, LoadMore } from '../debates/DebateParts';
import {
  communityApi,
  type CommunityDebate,
  type RankingArgs,
  useCategoriesQuery,
  useCommunityDebatesQuery,
  useVoteMutation,
  type VoteCounts,
} from './community.api';
import { DebateCard } from './DebateCard';
import type { MindsChanged } from './minds';
import { useStars } from './stars';

const SORTS: ReadonlyArray<[RankingSort, string]> = [
  ['MOST_POPULAR', 'Most Popular'],
  ['MOST_RECENT', 'Most Recent'],
  ['MOST_CONTROVERSIAL', 'Most Controversial'],
];
const PERIODS: ReadonlyArray<[RankingPeriod, string]> = [
  ['ALL_TIME', 'All Time'],
  ['TODAY', 'Today'],
  ['THIS_WEEK', 'This Week'],
  ['THIS_MONTH', 'This Month'],
];

interface Marks {
  readonly votes: Readonly<
    Record<string, { counts: VoteCounts; myVote: VoteKind | null; mindsChanged: MindsChanged }>
  >;
  readonly stars: Readonly<Record<string, boolean>>;
}

interface PageProps {
  readonly args: RankingArgs;
  readonly isLast: boolean;
  readonly isFirst: boolean;
  readonly expandedId: string | null;
  readonly marks: Marks;
  readonly localStars: readonly string[] | null;
  readonly pending: string | null;
  /** Wait: the sign-in state is loading for someone who was signed in last time. */
  readonly waitForViewer: boolean;
  onExpand(id: string | null): void;
  onMore(after: string): void;
  onVote(debate: CommunityDebate, kind: VoteKind | null): void;
  onStar(debate: CommunityDebate, starred: boolean): void;
}

/** One page of cards (10); the last page offers the next. */
function RankingPage({ args, isLast, isFirst, marks, localStars, ...props }: PageProps) {
  const { data, error, isFetching } = useCommunityDebatesQuery(args, {
    skip: props.waitForViewer,
  });
  if (error) {
    const message = 'message' in error ? error.message : '';
    return (
      <div className="empty-state">
        <p className="error" role="alert">
          {message
            ? `Unable to load debates: ${message}`
            : 'Unable to load debates. Please try again later.'}
        </p>
        {isFirst && (
          <>
            <p>No debates for this filter, generate your own!</p>
            <Link className="button" to="/engine">
              Start a Debate
            </Link>
          </>
        )}
      </div>
    );
  }
  if (!data) return <p role="status">Loading debates…</p>;
  if (isFirst && data.debates.length === 0) {
    return (
      <div className="empty-state">
        <p>No debates found for the selected filters.</p>
        <p>Now is your chance to be the first!</p>
        <Link className="button" to="/engine">
          Start a Debate
        </Link>
      </div>
    );
  }
  return (
    <>
      {data.debates.map((debate) => {
        const vote = marks.votes[debate.id];
        const starred =
          marks.stars[debate.id] ?? (localStars ? localStars.includes(debate.id) : debate.starred);
        return (
          <DebateCard
            key={debate.id}
            debate={debate}
            counts={vote?.counts ?? debate}
            myVote={vote ? vote.myVote : debate.myVote}
            mindsChanged={vote?.mindsChanged ?? debate.mindsChanged}
            starred={starred}
            expanded={props.expandedId === debate.id}
            busy={props.pending === debate.id}
            onToggleExpanded={() =>
              props.onExpand(props.expandedId === debate.id ? null : debate.id)
            }
            onVote={(kind) => props.onVote(debate, kind)}
            onToggleStar={() => props.onStar(debate, starred)}
          />
        );
      })}
      {isLast && <LoadMore next={data.next} busy={isFetching} onMore={props.onMore} />}
    </>
  );
}

/** The 'Community Forum' tab: shared debates, filtered and ranked in the database. */
export function RankingTab() {
  const auth = useAppSelector((state) => state.auth);
  const { data: categories } = useCategoriesQuery(undefined);
  const [category, setCategory] = useState<string | null>(null);
  const [sort, setSort] = useState<RankingSort>('MOST_RECENT');
  const [period, setPeriod] = useState<RankingPeriod>('ALL_TIME');
  const [starredOnly, setStarredOnly] = useState(false);
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [marks, setMarks] = useState<Marks>({ votes: {}, stars: {} });
  const [pending, setPending] = useState<string | null>(null);
  const [askSignIn, setAskSignIn] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const stars = useStars();
  const dispatch = useAppDispatch();
  const [vote] = useVoteMutation();
  const signedIn = auth.status === 'signedIn';
  const viewer = signedIn ? (auth.user?.uid ?? null) : null;

  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setCursors([null]);
      setExpandedId(null);
    };
  const base = {
    category,
    sort,
    period,
    starredOnly,
    // A visitor's Starred view asks for the stars kept in this browser.
    starredIds: !signedIn && starredOnly ? stars.ids : null,
    viewer,
  };

  const onVote = async (debate: CommunityDebate, kind: VoteKind | null) => {
    if (!signedIn) {
      setAskSignIn(true);
      return;
    }
    setPending(debate.id);
    setProblem(null);
    try {
      const result = await vote({ debateId: debate.id, kind }).unwrap();
      // A card's rounds read before the vote: the question before reading is closed now.
      dispatch(
        communityApi.util.updateQueryData('communityDebate', { id: debate.id, viewer }, (page) => ({
          ...page,
          myVote: result.myVote,
          askBefore: false,
          standBefore: page.standBefore ?? 'SKIPPED',
          mindsChanged: result.mindsChanged,
        })),
      );
      setMarks((current) => ({
        ...current,
        votes: {
          ...current.votes,
          [debate.id]: { counts: result, myVote: result.myVote, mindsChanged: result.mindsChanged },
        },
      }));
    } catch (error) {
      setProblem(
        error && typeof error === 'object' && 'message' in error
          ? String(error.message)
          : 'Your vote could not be counted. Please try again.',
      );
    } finally {
      setPending(null);
    }
  };

  const onStar = async (debate: CommunityDebate, starred: boolean) => {
    try {
      const now = await stars.toggle(debate.id, starred);
      setMarks((current) => ({ ...current, stars: { ...current.stars, [debate.id]: now } }));
    } catch {
      setProblem('The star could not be changed. Please try again.');
    }
  };

  return (
    <div className="tab-panel">
      <h2>Community Forum</h2>
      <div className="filters">
        <CategorySelect
          value={category}
          categories={categories ?? []}
          onChange={filtered(setCategory)}
        />
        <label>
          Sort
          <select
            value={sort}
            onChange={(event) => filtered(setSort)(event.target.value as RankingSort)}
          >
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Time period
          <select
            value={period}
            onChange={(event) => filtered(setPeriod)(event.target.value as RankingPeriod)}
          >
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <div className="segmented" role="group" aria-label="Show">
          {([false, true] as const).map((only) => (
            <button
              key={String(only)}
              type="button"
              className={`segment${starredOnly === only ? ' active' : ''}`}
              aria-pressed={starredOnly === only}
              onClick={() => filtered(setStarredOnly)(only)}
            >
              {only ? 'Starred' : 'All Debates'}
            </button>
          ))}
        </div>
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="debate-list">
        {cursors.map((after, index) => (
          <RankingPage
            key={after ?? 'first'}
            args={{ ...base, after }}
            isFirst={index === 0}
            isLast={index === cursors.length - 1}
            expandedId={expandedId}
            marks={marks}
            localStars={signedIn ? null : stars.ids}
            pending={pending}
            waitForViewer={auth.status === 'loading' && auth.lastUserLoggedIn}
            onExpand={setExpandedId}
            onMore={(next) => setCursors([...cursors, next])}
            onVote={(debate, kind) => void onVote(debate, kind)}
            onStar={(debate, starred) => void onStar(debate, starred)}
          />
        ))}
      </div>
      {askSignIn && (
        <SignInDialog
          id="vote-login-heading"
          heading="Sign in to vote"
          message="You need to be logged in to vote on debates."
          onClose={() => setAskSignIn(false)}
        />
      )}
    </div>
  );
}
