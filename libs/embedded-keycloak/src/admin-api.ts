import { hash } from '@node-rs/argon2';
import { signActionToken } from './action-tokens.js';
import type { BrokerAlias } from './brokers.js';
import { AdminError, OAuthError } from './errors.js';
import { ACCOUNT_CLIENT, type IssuerContext } from './issuer-context.js';
import { type Mailer, verifyEmailMessage } from './mail.js';
import { passwordPolicyError } from './realm.js';
import type { RealmUser } from './store.js';

/** A user as the admin API represents it (the fields this realm keeps). */
export interface UserRepresentation {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  enabled: boolean;
  createdTimestamp: number;
}

/** Keycloak's actionTokenGeneratedByAdminLifespan: 12 hours. */
const ADMIN_ACTION_TOKEN_SECONDS = 43_200;
/** The clients every Keycloak realm has, besides the realm file's. */
const BUILT_IN_CLIENTS = [
  ACCOUNT_CLIENT,
  'account-console',
  'admin-cli',
  'broker',
  'realm-management',
  'security-admin-console',
];

/**
 * The admin API the identity service uses (/admin/realms/{realm}/…): user creation and lookup,
 * send-verify-email and the identity providers, each behind realm-management's roles.
 */
export class AdminApi {
  constructor(
    private readonly context: IssuerContext,
    /** The realm's SMTP server; without it, send-verify-email fails as Keycloak's does. */
    private readonly mailer: Mailer | undefined,
  ) {}

  /**
   * The realm-management roles of an admin API caller: 401 without a valid bearer token of this
   * realm.
   */
  private async adminRoles(accessToken: string | undefined): Promise<string[]> {
    const unauthorized = new OAuthError(401, 'HTTP 401 Unauthorized', 'HTTP 401 Unauthorized');
    if (!accessToken) throw unauthorized;
    const claims = await this.context.verifyAccessToken(accessToken).catch(() => {
      throw unauthorized;
    });
    const roles = (claims['resource_access'] as Record<string, { roles?: string[] }> | undefined)?.[
      'realm-management'
    ]?.roles;
    return Array.isArray(roles) ? roles : [];
  }

  /**
   * The user an admin API call names: 404 for an unknown id to a caller who may query users
   * (403 to others, so ids cannot be probed), 403 without the role the call needs.
   */
  private async adminUser(
    accessToken: string | undefined,
    id: string,
    need: 'view-users' | 'manage-users',
  ): Promise<RealmUser> {
    const roles = await this.adminRoles(accessToken);
    const forbidden = new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    const user = await this.context.store.findUser(id);
    if (!user) {
      if (['manage-users', 'view-users', 'query-users'].some((role) => roles.includes(role))) {
        throw new AdminError(404, { error: 'User not found' });
      }
      throw forbidden;
    }
    const allowed = need === 'view-users' ? ['view-users', 'manage-users'] : ['manage-users'];
    if (!allowed.some((role) => roles.includes(role))) throw forbidden;
    return user;
  }

  /** POST /admin/realms/{realm}/users: only a token with realm-management's manage-users. */
  async createUser(
    accessToken: string | undefined,
    email: string,
    password: string,
    emailVerified = false,
  ): Promise<string> {
    const roles = await this.adminRoles(accessToken);
    if (!roles.includes('manage-users'))
      throw new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    const policy = passwordPolicyError(this.context.settings, password, email);
    if (policy) throw new OAuthError(400, policy.error, policy.error_description);
    const user = await this.context.store.createUser(email, await hash(password), {
      emailVerified,
    });
    return user._id;
  }

  /**
   * GET /admin/realms/{realm}/identity-provider/instances: the brokers whose OAuth app is
   * configured, enabled (view- or manage-identity-providers, view- or manage-realm).
   */
  async identityProviders(
    accessToken: string | undefined,
  ): Promise<{ alias: BrokerAlias; providerId: BrokerAlias; enabled: boolean }[]> {
    const roles = await this.adminRoles(accessToken);
    // Keycloak lets the realm's viewers and managers read them too.
    const allowed = [
      'view-identity-providers',
      'manage-identity-providers',
      'view-realm',
      'manage-realm',
    ];
    if (!allowed.some((role) => roles.includes(role)))
      throw new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    return (Object.keys(this.context.federation.brokers) as BrokerAlias[]).map((alias) => ({
      alias,
      providerId: alias,
      enabled: true,
    }));
  }

  /** GET /admin/realms/{realm}/users/{id}: view-users (or manage-users). */
  async getUser(accessToken: string | undefined, id: string): Promise<UserRepresentation> {
    const user = await this.adminUser(accessToken, id, 'view-users');
    return {
      id: user._id,
      username: user.email,
      email: user.email,
      emailVerified: user.emailVerified === true,
      enabled: user.enabled,
      createdTimestamp: new Date(user.createdAt).getTime(),
    };
  }

  /**
   * PUT /admin/realms/{realm}/users/{id}/send-verify-email: mails the user a link (a
   * verify-email action token) that verifies their address and leads back to `redirect_uri`.
   * Keycloak's checks, in its order; resolves once the SMTP server accepted the message.
   */
  async sendVerifyEmail(
    accessToken: string | undefined,
    id: string,
    query: {
      client_id?: string | undefined;
      redirect_uri?: string | undefined;
      lifespan?: number | undefined;
    },
  ): Promise<void> {
    const { settings } = this.context;
    const user = await this.adminUser(accessToken, id, 'manage-users');
    const refuse = (errorMessage: string) => new AdminError(400, { errorMessage });
    if (!user.email) throw refuse('User email missing');
    if (!user.enabled) throw refuse('User is disabled');
    if (query.redirect_uri !== undefined && query.client_id === undefined) {
      throw refuse('Client id missing');
    }
    const clientId = query.client_id ?? ACCOUNT_CLIENT;
    const clients = [settings.webClientId, settings.serviceClientId, ...BUILT_IN_CLIENTS];
    if (!clients.includes(clientId)) throw refuse("Client doesn't exist");
    // Only the web client has redirect URIs here (`${WEB_ORIGIN}/*`).
    if (
      query.redirect_uri !== undefined &&
      (clientId !== settings.webClientId || !this.context.allowedRedirect(query.redirect_uri))
    ) {
      throw refuse('Invalid redirect uri.');
    }
    const lifespan = query.lifespan ?? ADMIN_ACTION_TOKEN_SECONDS;
    const key = await signActionToken(this.context, {
      sub: user._id,
      eml: user.email,
      azp: clientId,
      ...(query.redirect_uri !== undefined ? { reduri: query.redirect_uri } : {}),
      exp: Math.floor(this.context.now() / 1000) + lifespan,
    });
    const link = `${this.context.issuerUrl}/login-actions/action-token?${new URLSearchParams({ key })}`;
    const failed = (cause?: unknown) =>
      new AdminError(500, { errorMessage: 'Failed to send verify email' }, { cause });
    if (!this.mailer) throw failed(new Error('The realm has no SMTP server configured'));
    try {
      await this.mailer.send(verifyEmailMessage(user.email, settings.displayName, link, lifespan));
    } catch (error) {
      throw failed(error);
    }
  }
}
