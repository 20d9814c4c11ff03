import { api } from '../../app/api';

/** The signed-in user's allowance (gateway `usage`). */
export interface Usage {
  readonly freeDebatesRemaining: number;
  readonly lastDebateStarted: string | null;
  readonly totalDebates: number;
  readonly memberSince: string;
}

const usageApi = api.injectEndpoints({
  endpoints: (build) => ({
    usage: build.query<Usage, undefined>({
      query: () => ({
        query: '{ usage { freeDebatesRemaining lastDebateStarted totalDebates memberSince } }',
      }),
      transformResponse: (data: { usage: Usage }) => data.usage,
      providesTags: ['Usage'],
    }),
  }),
});

export const { useUsageQuery } = usageApi;
