import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql } from './graphql-client.js';
import { startTestPlatform, type TestPlatform } from './test-platform.js';

const START = 'mutation { signInWithProvider(provider: GOOGLE) }';
const SIGN_UP =
  'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { expiresIn } }';
// What the Ingress adds when a browser comes over https to debate.example.org.
const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'debate.example.org' };

/** The redirect URI the provider sign-in asks the realm to come back to. */
async function redirectUriOf(url: string): Promise<string | null> {
  const result = await graphql<{ signInWithProvider: string }>(url, START, {
    headers: FORWARDED,
  });
  expect(result.errors).toBeUndefined();
  return new URL(result.data?.signInWithProvider ?? '').searchParams.get('redirect_uri');
}

// Behind the Ingress, which ends TLS, the gateway sees plain http from the proxy: the sign-in
// must still send the browser back to the https address it came from.
describe('the gateway behind a reverse proxy', () => {
  let behindProxy: TestPlatform;
  let direct: TestPlatform;

  beforeAll(async () => {
    // The proxy is this test, on the loopback address.
    behindProxy = await startTestPlatform(inProcessTransport(), { trustProxy: 'loopback' });
    direct = await startTestPlatform(inProcessTransport());
  }, 60_000);

  afterAll(async () => {
    await behindProxy?.teardown();
    await direct?.teardown();
  });

  it("with TRUST_PROXY, builds the sign-in redirect from the proxy's scheme and host", async () => {
    expect(await redirectUriOf(behindProxy.platform.url)).toBe(
      'https://debate.example.org/login?provider=google',
    );
  });

  it('without it, believes no forwarded header (anyone could send them)', async () => {
    const { host } = new URL(direct.platform.url);
    expect(await redirectUriOf(direct.platform.url)).toBe(`http://${host}/login?provider=google`);
  });

  it('sets the session cookie Secure when the browser came over https, not over plain http', async () => {
    const sessionCookie = async (url: string, email: string) => {
      const result = await graphql<{ signUp: { expiresIn: number } }>(url, SIGN_UP, {
        variables: { email, password: 'a fine password' },
        headers: FORWARDED,
      });
      expect(result.errors).toBeUndefined();
      return result.setCookie.find((value) => value.startsWith('debate_session=')) ?? '';
    };

    expect(await sessionCookie(behindProxy.platform.url, 'tls@example.org')).toMatch(/; Secure/);
    // The same header from a peer TRUST_PROXY does not name is anyone's: plain http it is.
    const plain = await sessionCookie(direct.platform.url, 'plain@example.org');
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).not.toMatch(/Secure/);
  });
});
