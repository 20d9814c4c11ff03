import { api } from '../../app/api';

const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Mails the link that verifies the signed-in user's address again (rate-limited). */
    sendVerificationEmail: build.mutation<boolean, undefined>({
      query: () => ({ query: 'mutation { sendVerificationEmail }' }),
      transformResponse: (data: { sendVerificationEmail: boolean }) => data.sendVerificationEmail,
    }),
  }),
});

export const { useSendVerificationEmailMutation } = verificationApi;
