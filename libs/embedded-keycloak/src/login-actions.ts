import { randomBytes } from 'node:crypto';
import { signActionToken, verifyActionToken } from './action-tokens.js';
import type { IssuerContext } from './issuer-context.js';
import { ERROR_HEADER, type RealmPage } from './pages.js';

/** What a login-actions endpoint answers the browser: a page, or a redirect. */
export type LoginActionAnswer =
  | { readonly status: number; readonly page: RealmPage; readonly setCookie?: string }
  | { readonly status: 302; readonly location: string };

export const AUTH_SESSION_COOKIE = 'AUTH_SESSION_ID';
/** Keycloak's accessCodeLifespanLogin: how long an authentication session lives. */
const AUTH_SESSION_SECONDS = 1800;

const EXPIRED_LINK = 'The link you clicked is no longer valid. It may have expired.';

/**
 * Whether the browser treats the realm's origin as a secure context, so that a `Secure;
 * SameSite=None` cookie is kept: https, or a loopback host, except in Safari, which refuses
 * Secure cookies over http (Keycloak's SecureContextResolver).
 */
function secureContext(realmUrl: string, userAgent: string | undefined): boolean {
  const url = new URL(realmUrl);
  if (url.protocol === 'https:') return true;
  const safari =
    userAgent !== undefined &&
    /Safari\//.test(userAgent) &&
    !/(Chrome|Chromium|CriOS|FxiOS|Firefox|Edg|OPR)\//.test(userAgent);
  if (safari) return false;
  const host = url.hostname.replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * The pages a verify-email link leads the browser through (Keycloak's login-actions): the
 * action token followed, then the required action done, in one authentication session.
 */
export class LoginActions {
  constructor(private readonly context: IssuerContext) {}

  /** The path of the realm's URL (the cookie's path, and where the pages' links lead). */
  private get realmPath(): string {
    return new URL(this.context.issuerUrl).pathname.replace(/\/$/, '');
  }

  private authSessionCookie(id: string, userAgent: string | undefined): string {
    const attributes = secureContext(this.context.issuerUrl, userAgent)
      ? 'Secure; SameSite=None'
      : 'SameSite=Lax';
    return `${AUTH_SESSION_COOKIE}=${id}; Path=${this.realmPath}/; HttpOnly; ${attributes}`;
  }

  private authSessionsSince(): Date {
    return new Date(this.context.now() - AUTH_SESSION_SECONDS * 1000);
  }

  /**
   * GET …/login-actions/action-token: a verify-email link followed. A link not yet bound to
   * this browser's authentication session (the mailed one, or one opened elsewhere) starts a
   * session and asks for a confirmation, whose link is bound to it; that link, followed with
   * the session's cookie, verifies the address and goes on to the required-action page.
   */
  async actionToken(
    query: { key?: string | undefined; tab_id?: string | undefined },
    authSessionId: string | undefined,
    userAgent: string | undefined,
  ): Promise<LoginActionAnswer> {
    const { store } = this.context;
    const token = await verifyActionToken(this.context, query.key);
    const user = token ? await store.findUser(token.sub) : null;
    if (!token || !user || user.email !== token.eml) {
      return { status: 400, page: { header: ERROR_HEADER, message: EXPIRED_LINK } };
    }
    if (!user.enabled) {
      return {
        status: 400,
        page: { header: ERROR_HEADER, message: 'Account is disabled, contact your administrator.' },
      };
    }
    const verifiedAlready = 'Your email address has been verified already.';
    if (user.emailVerified) {
      return { status: 200, page: { header: verifiedAlready, message: verifiedAlready } };
    }
    if (token.asid && authSessionId === token.asid) {
      const session = await store.findAuthSession(token.asid, this.authSessionsSince());
      if (session && session.tabId === query.tab_id && session.userId === user._id) {
        await store.markEmailVerified(user._id);
        await store.finishAuthSession(session._id);
        const next = new URLSearchParams({ client_id: session.clientId, tab_id: session.tabId });
        return {
          status: 302,
          location: `${this.context.issuerUrl}/login-actions/required-action?${next}`,
        };
      }
    }
    const session = {
      _id: randomBytes(24).toString('base64url'),
      tabId: randomBytes(8).toString('base64url'),
      userId: user._id,
      clientId: token.azp,
      redirectUri: token.reduri ?? null,
      done: false,
      createdAt: new Date(this.context.now()),
    };
    await store.startAuthSession(session);
    const bound = await signActionToken(this.context, { ...token, asid: session._id });
    const confirm = new URLSearchParams({
      key: bound,
      client_id: token.azp,
      tab_id: session.tabId,
    });
    return {
      status: 200,
      setCookie: this.authSessionCookie(session._id, userAgent),
      page: {
        header: 'Email address validation',
        message: `Confirm validity of e-mail address ${user.email}.`,
        link: {
          href: `${this.realmPath}/login-actions/action-token?${confirm}`,
          text: '» Click here to proceed',
        },
      },
    };
  }

  /**
   * GET …/login-actions/required-action: where a verified address lands. Once per
   * authentication session, which its cookie names.
   */
  async requiredAction(
    query: { tab_id?: string | undefined },
    authSessionId: string | undefined,
  ): Promise<LoginActionAnswer> {
    const session =
      authSessionId && query.tab_id
        ? await this.context.store.takeFinishedAuthSession(
            authSessionId,
            query.tab_id,
            this.authSessionsSince(),
          )
        : null;
    if (!session) {
      return {
        status: 400,
        page: {
          header: ERROR_HEADER,
          message: 'Cookie not found. Please make sure cookies are enabled in your browser.',
        },
      };
    }
    return {
      status: 200,
      page: {
        header: 'Account updated',
        message: 'Your account has been updated.',
        ...(session.redirectUri
          ? { link: { href: session.redirectUri, text: '« Back to Application' } }
          : {}),
      },
    };
  }
}
