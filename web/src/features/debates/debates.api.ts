import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type {
  MyDebateQuery,
  MyDebatesQuery,
  SaveDebateMutation,
  ShareDebateMutation,
  UnsavedDebateQuery,
  UnshareDebateMutation,
} from '../../gql/graphql';

/** One of the user's saved debates, as the history lists it (rounds come on demand). */
export type SavedDebate = MyDebatesQuery['myDebates']['debates'][number];

export interface HistoryArgs {
  readonly search: string;
  readonly category: string | null;
  readonly order: 'newest' | 'oldest';
  readonly after: string | null;
}

const MyDebatesDocument = graphql(`
  query MyDebates($search: String, $category: String, $order: String, $after: String) {
    myDebates(search: $search, category: $category, order: $order, after: $after, limit: 10) {
      debates {
        id
        topic
        categories
        userDisplayName
        timestamp
        sharedAt
        isPublic
        upvotes
        downvotes
        model1 {
          ...DebateSpeakerFields
        }
        model2 {
          ...DebateSpeakerFields
        }
        verdict {
          ...VerdictSummaryFields
        }
        rematchOf
        moderatorEnabled
        stopped
      }
      total
      next
    }
  }
`);

const MyDebateDocument = graphql(`
  query MyDebate($id: String!) {
    myDebate(id: $id) {
      id
      topic
      categories
      userDisplayName
      sharedAt
      upvotes
      downvotes
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
    }
  }
`);

const UnsavedDebateDocument = graphql(`
  query UnsavedDebate {
    unsavedDebate {
      runId
      topic
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
      moderatorEnabled
      rematchOf
      stopped
    }
  }
`);

const SaveDebateDocument = graphql(`
  mutation SaveDebate($runId: String!, $categories: [String!]!) {
    saveDebate(runId: $runId, categories: $categories) {
      id
    }
  }
`);

const ShareDebateDocument = graphql(`
  mutation ShareDebate($id: String!) {
    shareDebate(id: $id) {
      id
      isPublic
    }
  }
`);

const UnshareDebateDocument = graphql(`
  mutation UnshareDebate($id: String!) {
    unshareDebate(id: $id) {
      id
      isPublic
    }
  }
`);

/**
 * What sharing or unsharing `id` changes in the cache: the forum's pages, and the debate's public
 * copy (a card's rounds, its page). The history keeps its own view of the change.
 */
const publicChange = (id: string) => [
  'CommunityRanking' as const,
  { type: 'CommunityDebate' as const, id },
];

const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    myDebates: build.query<MyDebatesQuery['myDebates'], HistoryArgs>({
      query: ({ search, ...args }) =>
        operation(MyDebatesDocument, { ...args, search: search.trim() || null }),
      transformResponse: (data: MyDebatesQuery) => data.myDebates,
      providesTags: ['History'],
    }),
    myDebate: build.query<MyDebateQuery['myDebate'], string>({
      query: (id) => operation(MyDebateDocument, { id }),
      transformResponse: (data: MyDebateQuery) => data.myDebate,
      keepUnusedDataFor: 3600,
    }),
    // The user's last generated debate, not saved yet: the engine shows it again.
    unsavedDebate: build.query<UnsavedDebateQuery['unsavedDebate'], undefined>({
      query: () => operation(UnsavedDebateDocument),
      transformResponse: (data: UnsavedDebateQuery) => data.unsavedDebate,
      keepUnusedDataFor: 0,
    }),
    saveDebate: build.mutation<
      SaveDebateMutation['saveDebate'],
      { runId: string; categories: readonly string[] }
    >({
      query: (variables) => operation(SaveDebateDocument, variables),
      transformResponse: (data: SaveDebateMutation) => data.saveDebate,
      invalidatesTags: ['History'],
    }),
    shareDebate: build.mutation<ShareDebateMutation['shareDebate'], string>({
      query: (id) => operation(ShareDebateDocument, { id }),
      transformResponse: (data: ShareDebateMutation) => data.shareDebate,
      invalidatesTags: (_result, _error, id) => publicChange(id),
    }),
    unshareDebate: build.mutation<UnshareDebateMutation['unshareDebate'], string>({
      query: (id) => operation(UnshareDebateDocument, { id }),
      transformResponse: (data: UnshareDebateMutation) => data.unshareDebate,
      invalidatesTags: (_result, _error, id) => publicChange(id),
    }),
  }),
});

export const {
  useUnsavedDebateQuery,
  useMyDebatesQuery,
  useMyDebateQuery,
  useSaveDebateMutation,
  useShareDebateMutation,
  useUnshareDebateMutation,
} = historyApi;
