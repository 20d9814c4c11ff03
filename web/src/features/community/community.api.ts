import { api } from '../../app/api';
import {
  type DebateBase,
  type DebateWithRounds,
  ROUND_FIELDS,
  SPEAKER_FIELDS,
} from '../debates/debate.types';

export type VoteKind = 'FOR' | 'AGAINST' | 'INTERESTING';
export type RankingSort = 'MOST_POPULAR' | 'MOST_RECENT' | 'MOST_CONTROVERSIAL';
export type RankingPeriod = 'ALL_TIME' | 'TODAY' | 'THIS_WEEK' | 'THIS_MONTH';

export interface VoteCounts {
  readonly upvotes: number;
  readonly downvotes: number;
  readonly interesting: number;
}

/** A ranking card: counts, the viewer's own vote and star; no rounds. */
export interface CommunityDebate extends DebateBase, VoteCounts {
  readonly sharedAt: string;
  readonly views: number;
  readonly myVote: VoteKind | null;
  readonly starred: boolean;
}

export interface PublicDebate extends DebateWithRounds, VoteCounts {
  readonly sharedAt: string;
  readonly views: number;
}

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

const CARD = `id topic categories userDisplayName sharedAt upvotes downvotes interesting views
  myVote starred model1 { ${SPEAKER_FIELDS} } model2 { ${SPEAKER_FIELDS} }`;

export const communityApi = api.injectEndpoints({
  endpoints: (build) => ({
    communityDebates: build.query<{ debates: CommunityDebate[]; next: string | null }, RankingArgs>(
      {
        query: (ranking) => ({
          query: `query Ranking($category: String, $sort: RankingSort, $period: RankingPeriod,
            $starredOnly: Boolean, $starredIds: [String!], $utcOffsetMinutes: Int, $after: String) {
          communityDebates(category: $category, sort: $sort, period: $period,
            starredOnly: $starredOnly, starredIds: $starredIds,
            utcOffsetMinutes: $utcOffsetMinutes, after: $after, limit: 10) {
            debates { ${CARD} } next
          }
        }`,
          variables: {
            category: ranking.category,
            sort: ranking.sort,
            period: ranking.period,
            starredOnly: ranking.starredOnly,
            starredIds: ranking.starredIds,
            after: ranking.after,
            // Where the viewer's day starts, for Today.
            utcOffsetMinutes: -new Date().getTimezoneOffset(),
          },
        }),
        transformResponse: (data: {
          communityDebates: { debates: CommunityDebate[]; next: string | null };
        }) => data.communityDebates,
        keepUnusedDataFor: 30,
      },
    ),
    communityDebate: build.query<PublicDebate, string>({
      query: (id) => ({
        query: `query PublicDebate($id: String!) {
          communityDebate(id: $id) {
            id topic categories userDisplayName sharedAt upvotes downvotes interesting views
            model1 { ${SPEAKER_FIELDS} } model2 { ${SPEAKER_FIELDS} } rounds { ${ROUND_FIELDS} }
          }
        }`,
        variables: { id },
      }),
      transformResponse: (data: { communityDebate: PublicDebate }) => data.communityDebate,
      // Fetched on first expansion, then kept: expanding again reads the cache.
      keepUnusedDataFor: 3600,
    }),
    vote: build.mutation<
      VoteCounts & { debateId: string; myVote: VoteKind | null },
      { debateId: string; kind: VoteKind | null }
    >({
      query: (variables) => ({
        query: `mutation Vote($debateId: String!, $kind: VoteKind) {
          vote(debateId: $debateId, kind: $kind) { debateId upvotes downvotes interesting myVote }
        }`,
        variables,
      }),
      transformResponse: (data: {
        vote: VoteCounts & { debateId: string; myVote: VoteKind | null };
      }) => data.vote,
    }),
    toggleStar: build.mutation<boolean, string>({
      query: (debateId) => ({
        query: 'mutation Star($debateId: String!) { toggleStar(debateId: $debateId) }',
        variables: { debateId },
      }),
      transformResponse: (data: { toggleStar: boolean }) => data.toggleStar,
    }),
    mergeStars: build.mutation<string[], readonly string[]>({
      query: (debateIds) => ({
        query: 'mutation MergeStars($debateIds: [String!]!) { mergeStars(debateIds: $debateIds) }',
        variables: { debateIds },
      }),
      transformResponse: (data: { mergeStars: string[] }) => data.mergeStars,
    }),
  }),
});

export const {
  useCommunityDebatesQuery,
  useCommunityDebateQuery,
  useVoteMutation,
  useToggleStarMutation,
  useMergeStarsMutation,
} = communityApi;
