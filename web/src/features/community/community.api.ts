import type { Draft } from '@reduxjs/toolkit';
import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type {
  CategoriesQuery,
  CommunityDebateQuery,
  CommunityDebatesQuery,
  MergeStarsMutation,
  RankingPeriod,
  RankingSort,
  StanceBefore,
  StandBeforeMutation,
  ToggleStarMutation,
  VoteKind,
  VoteMutation,
} from '../../gql/graphql';
import { countsAfterVote } from './votes';

/** A shared debate's page: its rounds, verdict, minds changed, the reader's marks, its pair. */
export type PublicDebatePage = CommunityDebateQuery['communityDebate'];

/** Which debate, for whom: the page's and an expanded card's cache key. */
export interface CommunityDebateArgs {
  readonly id: string;
  readonly viewer: string | null;
}

/** A ranking card: counts, the viewer's own vote and star; no rounds. */
export type CommunityDebate = CommunityDebatesQuery['communityDebates']['debates'][number];

/** A debate's counts as a card shows them, from the ranking or from the last vote. */
export type VoteCounts = Pick<VoteMutation['vote'], 'upvotes' | 'downvotes' | 'interesting'>;

export interface RankingArgs {
  readonly category: string | null;
  readonly sort: RankingSort;
  readonly period: RankingPeriod;
  readonly starredOnly: boolean;
  /** A signed-out visitor's stars (from local storage); null when signed in. */
  readonly starredIds: readonly string[] | null;
  readonly after: string | null;
  /** Who asks: a page is cached per viewer, so signing in or out reloads it. */
  readonly viewer: string | null;
}

const CommunityDebatesDocument = graphql(`
  query CommunityDebates(
    $category: String
    $sort: RankingSort
    $period: RankingPeriod
    $starredOnly: Boolean
    $starredIds: [String!]
    $utcOffsetMinutes: Int
    $after: String
  ) {
    communityDebates(
      category: $category
      sort: $sort
      period: $period
      starredOnly: $starredOnly
      starredIds: $starredIds
      utcOffsetMinutes: $utcOffsetMinutes
      after: $after
      limit: 10
    ) {
      debates {
        id
        topic
        categories
        userDisplayName
        sharedAt
        upvotes
        downvotes
        interesting
        views
        myVote
        starred
        model1 {
          ...DebateSpeakerFields
        }
        model2 {
          ...DebateSpeakerFields
        }
        verdict {
          ...VerdictSummaryFields
        }
        mindsChanged {
          ...MindsChangedFields
        }
        example
        stopped
        rating {
          text
        }
      }
      next
    }
  }
`);

const CommunityDebateDocument = graphql(`
  query CommunityDebate($id: String!) {
    communityDebate(id: $id) {
      id
      topic
      categories
      userDisplayName
      sharedAt
      upvotes
      downvotes
      interesting
      views
      model1 {
        ...DebateSpeakerFields
      }
      model2 {
        ...DebateSpeakerFields
      }
      rounds {
        ...DebateRoundFields
      }
      verdict {
        ...DebateVerdictFields
      }
      mindsChanged {
        ...MindsChangedFields
      }
      example
      stopped
      rating {
        text
      }
      myVote
      standBefore
      askBefore
      pairedWith {
        id
        isRematch
        model1 {
          ...DebateSpeakerFields
        }
        model2 {
          ...DebateSpeakerFields
        }
        verdict {
          ...VerdictSummaryFields
        }
      }
    }
  }
`);

// Minds changed, as a card and a debate's page show it: the operations above and below spread it.
graphql(`
  fragment MindsChangedFields on MindsChanged {
    readers
    shares {
      before {
        for
        against
        undecided
      }
      after {
        for
        against
      }
      gain {
        for
        against
      }
      gainedReaders {
        for
        against
      }
      winner
    }
  }
`);

const VoteDocument = graphql(`
  mutation Vote($debateId: String!, $kind: VoteKind) {
    vote(debateId: $debateId, kind: $kind) {
      debateId
      upvotes
      downvotes
      interesting
      myVote
      mindsChanged {
        ...MindsChangedFields
      }
    }
  }
`);

const StandBeforeDocument = graphql(`
  mutation StandBefore($debateId: String!, $stance: StanceBefore) {
    standBefore(debateId: $debateId, stance: $stance) {
      debateId
      standBefore
      mindsChanged {
        ...MindsChangedFields
      }
    }
  }
`);

const ToggleStarDocument = graphql(`
  mutation ToggleStar($debateId: String!, $starred: Boolean) {
    toggleStar(debateId: $debateId, starred: $starred)
  }
`);

const CategoriesDocument = graphql(`
  query Categories {
    categories
  }
`);

const MergeStarsDocument = graphql(`
  mutation MergeStars($debateIds: [String!]!) {
    mergeStars(debateIds: $debateIds)
  }
`);

const communityQueries = api.injectEndpoints({
  endpoints: (build) => ({
    communityDebates: build.query<CommunityDebatesQuery['communityDebates'], RankingArgs>({
      query: (ranking) =>
        operation(CommunityDebatesDocument, {
          category: ranking.category,
          sort: ranking.sort,
          period: ranking.period,
          starredOnly: ranking.starredOnly,
          starredIds: ranking.starredIds,
          after: ranking.after,
          // Where the viewer's day starts, for Today.
          utcOffsetMinutes: -new Date().getTimezoneOffset(),
        }),
      transformResponse: (data: CommunityDebatesQuery) => data.communityDebates,
      // Read again once a debate is shared or unshared from the history.
      providesTags: ['CommunityRanking'],
      keepUnusedDataFor: 30,
    }),
    // Keyed by the viewer too: signing in or out reads the reader's own marks again.
    communityDebate: build.query<CommunityDebateQuery['communityDebate'], CommunityDebateArgs>({
      query: ({ id }) => operation(CommunityDebateDocument, { id }),
      providesTags: (_page, _error, { id }) => [{ type: 'CommunityDebate', id }],
      transformResponse: (data: CommunityDebateQuery) => data.communityDebate,
      // Fetched on first expansion, then kept: expanding again reads the cache.
      keepUnusedDataFor: 3600,
    }),
    // The category filters' choices (ranking and history): the gateway answers them itself,
    // unlike the catalog.
    categories: build.query<CategoriesQuery['categories'], undefined>({
      query: () => operation(CategoriesDocument),
      transformResponse: (data: CategoriesQuery) => data.categories,
      keepUnusedDataFor: 3600,
    }),
  }),
});

/** What a card and a debate's page both show of the readers' marks. */
type Marks = Draft<Pick<CommunityDebate, keyof VoteCounts | 'myVote' | 'mindsChanged'>>;

/** A change to a debate, as its ranking cards and its page hold it. */
interface DebateChange {
  card?(card: Draft<CommunityDebate>): void;
  page?(page: Draft<PublicDebatePage>): void;
}

/** The same change to the marks of a card and of a page. */
const toMarks = (change: (debate: Marks) => void): DebateChange => ({
  card: change,
  page: change,
});

type CacheUpdate = ReturnType<typeof communityQueries.util.updateQueryData>;

/** What undoes a cache update. */
type PatchCollection = ReturnType<CacheUpdate>;

/** What a mutation's onQueryStarted is given to read and change the cache. */
interface CacheAccess {
  dispatch(update: CacheUpdate): PatchCollection;
  getState(): Parameters<typeof communityQueries.util.selectCachedArgsForQuery>[0];
}

/**
 * The cached data an update's recipe is given, which is an immer draft: its type also allows the
 * data itself, read-only (the generated types are), for a recipe that returns a replacement.
 * Changed in place, only what changes is undone, not a vote made on another card meanwhile.
 */
const drafted = <T>(data: T | Draft<T>) => data as Draft<T>;

/**
 * Changes the debate wherever the cache holds it for this viewer: each ranking page that lists
 * it, and its page. (What another viewer was shown, their own vote and star, stays theirs.)
 * Answers the patches, whose undo() puts it back.
 */
function patchDebate(
  { dispatch, getState }: CacheAccess,
  { id, viewer }: CommunityDebateArgs,
  change: DebateChange,
): PatchCollection[] {
  const { selectCachedArgsForQuery, updateQueryData } = communityQueries.util;
  const state = getState();
  const cards = selectCachedArgsForQuery(state, 'communityDebates')
    .filter((ranking) => ranking.viewer === viewer)
    .map((ranking) =>
      dispatch(
        updateQueryData('communityDebates', ranking, (data) => {
          const card = drafted(data).debates.find((debate) => debate.id === id);
          if (card) change.card?.(card);
        }),
      ),
    );
  const pages = selectCachedArgsForQuery(state, 'communityDebate')
    .filter((page) => page.id === id && page.viewer === viewer)
    .map((page) =>
      dispatch(updateQueryData('communityDebate', page, (data) => change.page?.(drafted(data)))),
    );
  return [...cards, ...pages];
}

/** The last change sent, by kind ('vote', 'star'), viewer and debate: only its outcome is shown. */
const lastSent = new Map<string, number>();
let sent = 0;

/**
 * Shows `change` at once; once the server answers, `answered` with what it said, or, if it
 * refuses, the debate as it was (RTK Query's optimistic update). Of two changes of one kind to one debate in flight, only the later
 * one's outcome is shown: an earlier answer arriving last, or an earlier refusal undoing what
 * the later change showed, would show what the server no longer holds. The caller still gets
 * the refusal, to say why.
 */
async function optimistically<Result>(
  kind: 'vote' | 'star',
  cache: CacheAccess & { queryFulfilled: Promise<{ data: Result }> },
  debate: CommunityDebateArgs,
  change: DebateChange,
  answered: (result: Result) => DebateChange,
): Promise<void> {
  const key = `${kind}|${debate.viewer ?? ''}|${debate.id}`;
  const ticket = (sent += 1);
  lastSent.set(key, ticket);
  const patches = patchDebate(cache, debate, change);
  const isLast = () => lastSent.get(key) === ticket;
  try {
    const { data } = await cache.queryFulfilled;
    if (isLast()) patchDebate(cache, debate, answered(data));
  } catch {
    if (!isLast()) return;
    for (const patch of patches) patch.undo();
  } finally {
    if (isLast()) lastSent.delete(key);
  }
}

export const communityApi = communityQueries.injectEndpoints({
  endpoints: (build) => ({
    // Counted at once, as the server will count it; its answer (and minds changed) then stands.
    vote: build.mutation<VoteMutation['vote'], CommunityDebateArgs & { kind: VoteKind | null }>({
      query: ({ id, kind }) => operation(VoteDocument, { debateId: id, kind }),
      transformResponse: (data: VoteMutation) => data.vote,
      onQueryStarted: ({ kind, ...debate }, cache) =>
        optimistically(
          'vote',
          cache,
          debate,
          toMarks((debate) => {
            Object.assign(debate, countsAfterVote(debate, debate.myVote, kind));
            debate.myVote = kind;
          }),
          (result) => {
            const counted = (debate: Marks) => {
              debate.upvotes = result.upvotes;
              debate.downvotes = result.downvotes;
              debate.interesting = result.interesting;
              debate.myVote = result.myVote;
              debate.mindsChanged = result.mindsChanged;
            };
            return {
              card: counted,
              page: (page) => {
                counted(page);
                // A reader who votes is not asked where they stood before any more (the
                // server records SKIPPED for one who never said).
                page.askBefore = false;
                page.standBefore ??= 'SKIPPED';
              },
            };
          },
        ),
    }),
    // Not shown before the server answers: the question would go, and with it the place where
    // a refusal says why. A refusal (answered elsewhere meanwhile) reads the debate again.
    standBefore: build.mutation<
      StandBeforeMutation['standBefore'],
      CommunityDebateArgs & { stance: StanceBefore | null }
    >({
      query: ({ id, stance }) => operation(StandBeforeDocument, { debateId: id, stance }),
      transformResponse: (data: StandBeforeMutation) => data.standBefore,
      invalidatesTags: (_result, error, { id }) => (error ? [{ type: 'CommunityDebate', id }] : []),
      onQueryStarted: async ({ id, viewer }, cache) => {
        try {
          const { data } = await cache.queryFulfilled;
          patchDebate(
            cache,
            { id, viewer },
            {
              card: (card) => {
                card.mindsChanged = data.mindsChanged;
              },
              page: (page) => {
                page.standBefore = data.standBefore;
                page.askBefore = false;
                page.mindsChanged = data.mindsChanged;
              },
            },
          );
        } catch {
          // Refused: the question says why, and invalidatesTags reads the debate again.
        }
      },
    }),
    // The star as wanted, not flipped: a retry after a lost answer changes nothing. Shown at
    // once on the ranking's cards (a debate's page shows the stars of useStars).
    toggleStar: build.mutation<boolean, CommunityDebateArgs & { starred: boolean }>({
      query: ({ id, starred }) => operation(ToggleStarDocument, { debateId: id, starred }),
      transformResponse: (data: ToggleStarMutation) => data.toggleStar,
      onQueryStarted: ({ starred, ...debate }, cache) =>
        optimistically(
          'star',
          cache,
          debate,
          {
            card: (card) => {
              card.starred = starred;
            },
          },
          (now) => ({
            card: (card) => {
              card.starred = now;
            },
          }),
        ),
    }),
    mergeStars: build.mutation<MergeStarsMutation['mergeStars'], readonly string[]>({
      query: (debateIds) => operation(MergeStarsDocument, { debateIds }),
      transformResponse: (data: MergeStarsMutation) => data.mergeStars,
    }),
  }),
});

export const {
  useCategoriesQuery,
  useCommunityDebatesQuery,
  useCommunityDebateQuery,
  useVoteMutation,
  useStandBeforeMutation,
  useToggleStarMutation,
  useMergeStarsMutation,
} = communityApi;
