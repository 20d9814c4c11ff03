import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { UsageQuery } from '../../gql/graphql';

const UsageDocument = graphql(`
  query Usage {
    usage {
      freeDebatesRemaining
      lastDebateStarted
      nextFreeDebateAt
      totalDebates
      memberSince
      tokensIn
      tokensOut
    }
  }
`);

const usageApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's allowance. */
    usage: build.query<UsageQuery['usage'], undefined>({
      query: () => operation(UsageDocument),
      transformResponse: (data: UsageQuery) => data.usage,
      providesTags: ['Usage'],
    }),
  }),
});

export const { useUsageQuery } = usageApi;
