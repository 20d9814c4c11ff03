import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { SignInProvidersQuery } from '../../gql/graphql';
import type { SignInProvider } from '../auth/auth.slice';

const SignInProvidersDocument = graphql(`
  query SignInProviders {
    signInProviders
  }
`);

const providersApi = api.injectEndpoints({
  endpoints: (build) => ({
    signInProviders: build.query<SignInProvider[], undefined>({
      query: () => operation(SignInProvidersDocument),
      transformResponse: (data: SignInProvidersQuery) =>
        data.signInProviders.map((provider) => provider.toLowerCase() as SignInProvider),
      keepUnusedDataFor: 300,
    }),
  }),
});

export const { useSignInProvidersQuery } = providersApi;
