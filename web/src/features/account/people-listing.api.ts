import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { PeopleListingQuery, SetPeopleListingMutation } from '../../gql/graphql';

/** Whether the signed-in user is listed on the People board, under which name. */
export type PeopleListing = PeopleListingQuery['peopleListing'];

const PeopleListingDocument = graphql(`
  query PeopleListing {
    peopleListing {
      listed
      name
      ratedDebates
    }
  }
`);

const SetPeopleListingDocument = graphql(`
  mutation SetPeopleListing($listed: Boolean!, $name: String) {
    setPeopleListing(listed: $listed, name: $name) {
      listed
      name
      ratedDebates
    }
  }
`);

const peopleListingApi = api.injectEndpoints({
  endpoints: (build) => ({
    peopleListing: build.query<PeopleListing, undefined>({
      query: () => operation(PeopleListingDocument),
      transformResponse: (data: PeopleListingQuery) => data.peopleListing,
    }),
    // The reply is the listing as now stored: it replaces the one read, with no second request.
    setPeopleListing: build.mutation<PeopleListing, { listed: boolean; name: string | null }>({
      query: (variables) => operation(SetPeopleListingDocument, variables),
      transformResponse: (data: SetPeopleListingMutation) => data.setPeopleListing,
      onQueryStarted: async (_variables, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(peopleListingApi.util.upsertQueryData('peopleListing', undefined, data));
        } catch {
          // Refused: nothing changed, and the form shows why.
        }
      },
    }),
  }),
});

export const { usePeopleListingQuery, useSetPeopleListingMutation } = peopleListingApi;
