import { randomBytes } from 'node:crypto';
import { clientRedirect } from './authorize.js';
import { type BrokerAlias, type BrokeredIdentity, BrokerError, brokerNames } from './brokers.js';
import { OAuthError } from './errors.js';
import type { IssuerContext } from './issuer-context.js';
import { EmailTakenError, type RealmUser } from './store.js';

/** How long a sign-in started at a provider may take to come back. */
const FLOW_SECONDS = 600;

/** The provider's way back of a brokered sign-in, and the realm user it signs in. */
export class Brokering {
  constructor(private readonly context: IssuerContext) {}

  /**
   * GET …/broker/{alias}/endpoint: the provider's answer. Finds or creates the realm user the
   * provider account belongs to, then sends the browser back to the client with a code.
   */
  async brokerCallback(
    alias: BrokerAlias,
    query: {
      code?: string | undefined;
      state?: string | undefined;
      error?: string | undefined;
      error_description?: string | undefined;
    },
  ): Promise<string> {
    const { store } = this.context;
    const flow = query.state
      ? await store.takeFlow(query.state, new Date(this.context.now() - FLOW_SECONDS * 1000))
      : null;
    if (!flow || flow.alias !== alias) {
      throw new OAuthError(400, 'invalid_request', 'The sign-in expired or was not started here');
    }
    const name = brokerNames[alias];
    const back = (fields: Record<string, string>) =>
      clientRedirect(flow.clientRedirectUri, { ...fields, state: flow.clientState });
    if (query.error || !query.code) {
      return back({
        error: 'access_denied',
        error_description: `${name} did not sign you in${query.error_description ? `: ${query.error_description}` : query.error ? ` (${query.error})` : ''}`,
      });
    }
    const broker = this.context.federation.brokers[alias];
    if (!broker) {
      return back({
        error: 'temporarily_unavailable',
        error_description: `${name} sign-in is not configured on this server`,
      });
    }
    let user: RealmUser;
    try {
      const identity = await broker.identify(
        query.code,
        flow.brokerVerifier,
        flow.nonce,
        this.context.brokerEndpoint(alias),
      );
      user = await this.federatedUser(alias, identity);
    } catch (error) {
      if (!(error instanceof BrokerError || error instanceof OAuthError)) throw error;
      return back({ error: 'access_denied', error_description: error.message });
    }
    const code = randomBytes(32).toString('base64url');
    await store.saveCode(code, {
      userId: user._id,
      clientId: flow.clientId,
      redirectUri: flow.clientRedirectUri,
      codeChallenge: flow.codeChallenge,
    });
    return back({ code, iss: this.context.issuerUrl });
  }

  /**
   * The realm user of a provider account: the one linked before; else the user with the same
   * e-mail when the provider vouches for it (the realm trusts their e-mail); else a new user.
   */
  private async federatedUser(alias: BrokerAlias, identity: BrokeredIdentity): Promise<RealmUser> {
    const { store } = this.context;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const linked = await store.findLinkedUser(alias, identity.subject);
      if (linked) {
        if (!linked.enabled) throw new OAuthError(400, 'access_denied', 'Account is disabled');
        return linked;
      }
      const profile = { displayName: identity.displayName, photoURL: identity.photoURL };
      let user = await store.findUserByEmail(identity.email);
      const existing = user !== null;
      if (user && !identity.emailVerified) {
        throw new OAuthError(
          400,
          'access_denied',
          `An account with ${identity.email} exists; sign in with its password`,
        );
      }
      if (user) await store.fillProfile(user._id, profile);
      else {
        try {
          // Keycloak's trustEmail: the provider's word on the address is the realm's.
          user = await store.createUser(identity.email, null, {
            ...profile,
            emailVerified: identity.emailVerified,
          });
        } catch (error) {
          if (error instanceof EmailTakenError) continue; // a concurrent first sign-in won
          throw error;
        }
      }
      if (await store.link(alias, identity.subject, user._id)) {
        // Only a provider that vouches for the address is linked to an existing user.
        if (existing && identity.emailVerified) await store.markEmailVerified(user._id);
        return (await store.findUser(user._id)) ?? user;
      }
    }
    throw new OAuthError(409, 'conflict', 'The sign-in raced another one; try again');
  }
}
