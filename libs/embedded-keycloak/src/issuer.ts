import type { JWTPayload } from 'jose';
import { AdminApi } from './admin-api.js';
import { Authorization } from './authorize.js';
import { Brokering } from './brokering.js';
import { type Federation, IssuerContext } from './issuer-context.js';
import type { SigningKey } from './keys.js';
import { LoginActions } from './login-actions.js';
import { type MailSettings, smtpMailer } from './mail.js';
import type { RealmSettings } from './realm.js';
import type { RealmStore } from './store.js';
import { Tokens } from './tokens.js';

/**
 * The embedded issuer: one realm of Keycloak's, its endpoints grouped by job (the token
 * endpoint's grants, the authorization endpoint, brokering, the admin API, the login actions a
 * verify-email link leads to), over what they share.
 */
export class EmbeddedIssuer {
  private readonly context: IssuerContext;
  readonly tokens: Tokens;
  readonly authorization: Authorization;
  readonly brokering: Brokering;
  readonly admin: AdminApi;
  readonly loginActions: LoginActions;

  constructor(
    readonly settings: RealmSettings,
    store: RealmStore,
    key: SigningKey,
    /**
     * The realm's URL, e.g. http://localhost:3000/auth/realms/debate: the tokens' `iss`. A
     * function when the server's address is known only once it listens (port 0).
     */
    realmUrl: string | (() => string),
    serviceSecret: string,
    now: () => number = Date.now,
    federation: Federation = { brokers: {}, webOrigins: [] },
    /** The realm's SMTP server; without it, send-verify-email fails as Keycloak's does. */
    mail?: MailSettings,
  ) {
    this.context = new IssuerContext(settings, store, key, realmUrl, now, federation);
    this.tokens = new Tokens(this.context, serviceSecret);
    this.authorization = new Authorization(this.context);
    this.brokering = new Brokering(this.context);
    this.admin = new AdminApi(this.context, mail ? smtpMailer(mail) : undefined);
    this.loginActions = new LoginActions(this.context);
  }

  get issuerUrl(): string {
    return this.context.issuerUrl;
  }

  jwks(): { keys: object[] } {
    return this.context.jwks();
  }

  /** Verifies an access token of this realm (signature, issuer, expiry). */
  verifyAccessToken(token: string): Promise<JWTPayload> {
    return this.context.verifyAccessToken(token);
  }

  /** The web app's sign-in page, where an error page of a brokered sign-in leads back to. */
  get applicationSignIn(): string {
    return this.context.applicationSignIn;
  }
}
