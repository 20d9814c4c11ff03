import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { SendVerificationEmailMutation } from '../../gql/graphql';

const SendVerificationEmailDocument = graphql(`
  mutation SendVerificationEmail {
    sendVerificationEmail
  }
`);

const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Mails the link that verifies the signed-in user's address again (rate-limited). */
    sendVerificationEmail: build.mutation<boolean, undefined>({
      query: () => operation(SendVerificationEmailDocument),
      transformResponse: (data: SendVerificationEmailMutation) => data.sendVerificationEmail,
    }),
  }),
});

export const { useSendVerificationEmailMutation } = verificationApi;
