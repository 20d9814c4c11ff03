import { categoryNames } from '@debate/contracts/constants';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { ListSkeleton } from '../../components/ListSkeleton';
import { LoadFailure } from '../../components/LoadFailure';
import { SignInDialog } from '../../components/SignInDialog';
import type { RankingPeriod, RankingSort, VoteKind } from '../../gql/graphql';
import { CategorySelect, LoadMore } from '../debates/DebateParts';
import {
  type CommunityDebate,
  type RankingArgs,
  useCategoriesQuery,
  useCommunityDebatesQuery,
  useVoteMutation,
} from './community.api';
import { DebateCard } from './DebateCard';
import { useStars } from './stars';
import { type CardProblem, messageOf, STAR_FAILED, VOTE_FAILED } from './votes';

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

/** 'MOST_POPULAR' as the address writes it: 'most-popular'. */
const slug = (value: string) => value.toLowerCase().replaceAll('_', '-');

/** The value of `options` whose slug `param` is, else `fallback` (an old or edited link). */
function fromSlug<T extends string>(
  options: ReadonlyArray<readonly [T, string]>,
  param: string | null,
  fallback: T,
): T {
  return options.find(([value]) => slug(value) === param)?.[0] ?? fallback;
}

/** The view the address asks for: ?category=…&sort=…&period=…&show=starred (defaults left out). */
export interface RankingView {
  readonly category: string | null;
  readonly sort: RankingSort;
  readonly period: RankingPeriod;
  readonly starredOnly: boolean;
}

export const DEFAULT_VIEW: RankingView = {
  category: null,
  sort: 'MOST_RECENT',
  period: 'ALL_TIME',
  starredOnly: false,
};

export function viewOf(params: URLSearchParams): RankingView {
  return {
    // A category the platform does not have (an old or edited link): all of them.
    category: categoryNames.find((name) => name === params.get('category')) ?? null,
    sort: fromSlug(SORTS, params.get('sort'), DEFAULT_VIEW.sort),
    period: fromSlug(PERIODS, params.get('period'), DEFAULT_VIEW.period),
    starredOnly: params.get('show') === 'starred',
  };
}

export function paramsOf(view: RankingView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.category) params.set('category', view.category);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', slug(view.sort));
  if (view.period !== DEFAULT_VIEW.period) params.set('period', slug(view.period));
  if (view.starredOnly) params.set('show', 'starred');
  return params;
}

/** What every card of the list needs from the tab: a visitor's stars, the viewer's actions. */
interface CardActions {
  /** The stars kept in this browser, for a visitor; null when signed in (the card says). */
  readonly localStars: readonly string[] | null;
  readonly pending: string | null;
  readonly problems: Readonly<Record<string, CardProblem>>;
  onVote(debate: CommunityDebate, kind: VoteKind | null): void;
  onStar(debate: CommunityDebate, starred: boolean): void;
}

interface PageProps extends CardActions {
  readonly args: RankingArgs;
  readonly isLast: boolean;
  readonly isFirst: boolean;
  readonly expandedId: string | null;
  /** Wait: the sign-in state is loading for someone who was signed in last time. */
  readonly waitForViewer: boolean;
  readonly filtered: boolean;
  onExpand(id: string | null): void;
  onMore(after: string): void;
}

/** One page of cards (10); the last page offers the next. */
function RankingPage({ args, isLast, isFirst, localStars, ...props }: PageProps) {
  const { data, error, isFetching, refetch } = useCommunityDebatesQuery(args, {
    skip: props.waitForViewer,
  });
  if (error) {
    const message = 'message' in error ? error.message : '';
    return (
      <LoadFailure
        message={
          message
            ? `Unable to load debates: ${message}`
            : 'Unable to load debates. Please try again later.'
        }
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  }
  if (!data) return isFirst ? <ListSkeleton label="Loading debates…" /> : null;
  if (isFirst && data.debates.length === 0) {
    return (
      <div className="empty-state">
        {props.filtered ? (
          <>
            <p>No debates found for the selected filters.</p>
            <p>Now is your chance to be the first!</p>
          </>
        ) : (
          // A first visit to an empty forum: what this is, and the way to the first debate.
          <p className="intro">
            Two AI speakers debate a motion over three rounds (Constructive Arguments, Rebuttal and
            Summary), a judge scores them, and the debates people share here are voted on by the
            community. Nothing has been shared yet: now is your chance to be the first!
          </p>
        )}
        <Link className="button" to="/engine">
          Start a Debate
        </Link>
      </div>
    );
  }
  return (
    <>
      {data.debates.map((debate) => {
        const starred = localStars ? localStars.includes(debate.id) : debate.starred;
        return (
          <DebateCard
            key={debate.id}
            debate={debate}
            starred={starred}
            expanded={props.expandedId === debate.id}
            busy={props.pending === debate.id}
            problem={props.problems[debate.id] ?? null}
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

/** The pages of one view: kept while the view stays, started again when it changes. */
function RankingList({
  base,
  filtered,
  waitForViewer,
  ...actions
}: CardActions & {
  base: Omit<RankingArgs, 'after'>;
  filtered: boolean;
  waitForViewer: boolean;
}) {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [expandedId, setExpandedId] = useState<string | null>(null);
  return (
    <div className="debate-list">
      {cursors.map((after, index) => (
        <RankingPage
          key={after ?? 'first'}
          {...actions}
          args={{ ...base, after }}
          isFirst={index === 0}
          isLast={index === cursors.length - 1}
          expandedId={expandedId}
          waitForViewer={waitForViewer}
          filtered={filtered}
          onExpand={setExpandedId}
          onMore={(next) => setCursors([...cursors, next])}
        />
      ))}
    </div>
  );
}

/**
 * The 'Community Forum' tab: shared debates, filtered and ranked in the database. The view is
 * in the address, so a reload keeps it and a link shares it. Votes and stars show at once and
 * go back if the server refuses them (the mutations' optimistic updates of the cached pages),
 * the reason and a retry on the card.
 */
export function RankingTab() {
  const auth = useAppSelector((state) => state.auth);
  const { data: categories } = useCategoriesQuery(undefined);
  const [params, setParams] = useSearchParams();
  const view = viewOf(params);
  const [problems, setProblems] = useState<Record<string, CardProblem>>({});
  const [askSignIn, setAskSignIn] = useState(false);
  const stars = useStars();
  const [vote, voting] = useVoteMutation();
  // The card whose vote the server is counting.
  const pending = voting.isLoading ? (voting.originalArgs?.id ?? null) : null;
  const signedIn = auth.status === 'signedIn';
  const viewer = signedIn ? (auth.user?.uid ?? null) : null;

  // The view as the address writes it: what the list is kept for, and whether any filter is set.
  const viewKey = paramsOf(view).toString();
  const show = (change: Partial<RankingView>) =>
    setParams(paramsOf({ ...view, ...change }), { replace: true });
  const base = {
    ...view,
    // A visitor's Starred view asks for the stars kept in this browser.
    starredIds: !signedIn && view.starredOnly ? stars.ids : null,
    viewer,
  };

  const setProblem = (debateId: string, problem: CardProblem | null) =>
    setProblems((current) => {
      const others = Object.fromEntries(Object.entries(current).filter(([id]) => id !== debateId));
      return problem ? { ...others, [debateId]: problem } : others;
    });

  const onVote = async (debate: CommunityDebate, kind: VoteKind | null) => {
    if (!signedIn) {
      setAskSignIn(true);
      return;
    }
    setProblem(debate.id, null);
    try {
      await vote({ id: debate.id, viewer, kind }).unwrap();
    } catch (error) {
      setProblem(debate.id, {
        message: messageOf(error, VOTE_FAILED),
        retry: () => void onVote(debate, kind),
      });
    }
  };

  const onStar = async (debate: CommunityDebate, starred: boolean) => {
    setProblem(debate.id, null);
    try {
      await stars.toggle(debate.id, starred);
    } catch (error) {
      setProblem(debate.id, {
        message: messageOf(error, STAR_FAILED),
        retry: () => void onStar(debate, starred),
      });
    }
  };

  return (
    <div className="tab-panel unframed">
      <h2>Community Forum</h2>
      <div className="filters">
        <CategorySelect
          value={view.category}
          categories={categories ?? []}
          onChange={(category) => show({ category })}
        />
        <label>
          Sort
          <select
            value={view.sort}
            onChange={(event) => show({ sort: event.target.value as RankingSort })}
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
            value={view.period}
            onChange={(event) => show({ period: event.target.value as RankingPeriod })}
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
              className={`segment${view.starredOnly === only ? ' active' : ''}`}
              aria-pressed={view.starredOnly === only}
              onClick={() => show({ starredOnly: only })}
            >
              {only ? 'Starred' : 'All Debates'}
            </button>
          ))}
        </div>
      </div>
      <RankingList
        key={viewKey}
        base={base}
        filtered={viewKey !== ''}
        waitForViewer={auth.status === 'loading' && auth.lastUserLoggedIn}
        localStars={signedIn ? null : stars.ids}
        pending={pending}
        problems={problems}
        onVote={(debate, kind) => void onVote(debate, kind)}
        onStar={(debate, starred) => void onStar(debate, starred)}
      />
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
