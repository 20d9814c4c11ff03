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

// Minds changed, as a card and a debate's page show it.
export const MindsChangedFieldsFragment = graphql(`
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

export const communityApi = api.injectEndpoints({
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
    vote: build.mutation<VoteMutation['vote'], { debateId: string; kind: VoteKind | null }>({
      query: (variables) => operation(VoteDocument, variables),
      transformResponse: (data: VoteMutation) => data.vote,
    }),
    standBefore: build.mutation<
      StandBeforeMutation['standBefore'],
      { debateId: string; stance: StanceBefore | null }
    >({
      query: (variables) => operation(StandBeforeDocument, variables),
      transformResponse: (data: StandBeforeMutation) => data.standBefore,
    }),
    // The star as wanted, not flipped: a retry after a lost answer changes nothing.
    toggleStar: build.mutation<boolean, { debateId: string; starred: boolean }>({
      query: (variables) => operation(ToggleStarDocument, variables),
      transformResponse: (data: ToggleStarMutation) => data.toggleStar,
    }),
    // The category filters' choices (ranking and history): the gateway answers them itself,
    // unlike the catalog.
    categories: build.query<CategoriesQuery['categories'], undefined>({
      query: () => operation(CategoriesDocument),
      transformResponse: (data: CategoriesQuery) => data.categories,
      keepUnusedDataFor: 3600,
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
