import { MongoClient } from 'mongodb';
import { graphql, type SignedUp, signUpThroughGateway } from './graphql-client.js';
import type { TestPlatform } from './test-platform.js';

const SIGN_IN =
  'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';

/**
 * An account made through the gateway whose address the embedded realm then holds verified (as
 * following the mailed link does), signed in again so that its token says so: what the usage
 * service's designated test account is matched on by its address.
 */
export async function signUpVerified(running: TestPlatform, email: string): Promise<SignedUp> {
  const { id } = await signUpThroughGateway(running.platform.url, email);
  const store = await MongoClient.connect(running.mongoUrl);
  try {
    await store
      .db('keycloak')
      .collection<{ _id: string }>('realm_users')
      .updateOne({ _id: id }, { $set: { emailVerified: true } });
  } finally {
    await store.close();
  }
  const signedIn = await graphql<{ signIn: { accessToken: string } }>(
    running.platform.url,
    SIGN_IN,
    { variables: { email, password: 'a long enough password' } },
  );
  const token = signedIn.data?.signIn.accessToken;
  if (!token) throw new Error(`signIn failed: ${JSON.stringify(signedIn.errors)}`);
  return { id, token };
}
