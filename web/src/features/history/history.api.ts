import { api } from '../../app/api';
import {
  type DebateBase,
  type DebateWithRounds,
  ROUND_FIELDS,
  SPEAKER_FIELDS,
} from '../debates/debate.types';

/** One of the user's saved debates, as the history lists it (rounds come on demand). */
export interface SavedDebate extends DebateBase {
  readonly timestamp: string;
  readonly sharedAt: string | null;
  readonly isPublic: boolean;
  readonly upvotes: number;
  readonly downvotes: number;
}

export interface HistoryArgs {
  readonly search: string;
  readonly category: string | null;
  readonly order: 'newest' | 'oldest';
  readonly after: string | null;
}

const SAVED = `id topic categories userDisplayName timestamp sharedAt isPublic upvotes downvotes
  model1 { ${SPEAKER_FIELDS} } model2 { ${SPEAKER_FIELDS} }`;

export const historyApi = api.injectEndpoints({
  endpoints: (build) => ({
    myDebates: build.query<
      { debates: SavedDebate[]; total: number; next: string | null },
      HistoryArgs
    >({
      query: ({ search, ...args }) => ({
        query: `query History($search: String, $category: String, $order: String, $after: String) {
          myDebates(search: $search, category: $category, order: $order, after: $after, limit: 10) {
            debates { ${SAVED} } total next
          }
        }`,
        variables: { ...args, search: search.trim() || null },
      }),
      transformResponse: (data: {
        myDebates: { debates: SavedDebate[]; total: number; next: string | null };
      }) => data.myDebates,
      providesTags: ['History'],
    }),
    myDebate: build.query<DebateWithRounds, string>({
      query: (id) => ({
        query: `query SavedDebate($id: String!) {
          myDebate(id: $id) {
            id topic categories userDisplayName sharedAt upvotes downvotes
            model1 { ${SPEAKER_FIELDS} } model2 { ${SPEAKER_FIELDS} } rounds { ${ROUND_FIELDS} }
          }
        }`,
        variables: { id },
      }),
      transformResponse: (data: { myDebate: DebateWithRounds }) => data.myDebate,
      keepUnusedDataFor: 3600,
    }),
    saveDebate: build.mutation<{ id: string }, { runId: string; categories: readonly string[] }>({
      query: (variables) => ({
        query: `mutation Save($runId: String!, $categories: [String!]!) {
          saveDebate(runId: $runId, categories: $categories) { id }
        }`,
        variables,
      }),
      transformResponse: (data: { saveDebate: { id: string } }) => data.saveDebate,
      invalidatesTags: ['History'],
    }),
    shareDebate: build.mutation<{ id: string; isPublic: boolean }, string>({
      query: (id) => ({
        query: 'mutation Share($id: String!) { shareDebate(id: $id) { id isPublic } }',
        variables: { id },
      }),
      transformResponse: (data: { shareDebate: { id: string; isPublic: boolean } }) =>
        data.shareDebate,
    }),
  }),
});

export const {
  useMyDebatesQuery,
  useMyDebateQuery,
  useSaveDebateMutation,
  useShareDebateMutation,
} = historyApi;
