import { createHash, randomBytes } from 'node:crypto';
import { brokerNames } from './brokers.js';
import { OAuthError } from './errors.js';
import type { IssuerContext } from './issuer-context.js';

/** What the authorization endpoint receives. */
export interface AuthorizationRequest {
  readonly client_id?: string | undefined;
  readonly response_type?: string | undefined;
  readonly redirect_uri?: string | undefined;
  readonly state?: string | undefined;
  readonly code_challenge?: string | undefined;
  readonly code_challenge_method?: string | undefined;
  readonly kc_idp_hint?: string | undefined;
}

/** PKCE's S256 challenge of a verifier. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The client's redirect URI with the answer (code or error) and its state in the query. */
export function clientRedirect(
  redirectUri: string,
  fields: Record<string, string | null | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

/** The authorization endpoint: the way in of a brokered sign-in. */
export class Authorization {
  constructor(private readonly context: IssuerContext) {}

  /**
   * GET …/protocol/openid-connect/auth: the authorization-code flow with PKCE, for brokered
   * sign-in (kc_idp_hint names the provider). Returns where to send the browser: the provider,
   * or the client with an error. A bad client or redirect URI is never redirected to (an
   * OAuthError, shown as a page).
   */
  async authorize(request: AuthorizationRequest): Promise<string> {
    const { context } = this;
    const known =
      request.client_id === undefined ? undefined : context.settings.clients.get(request.client_id);
    if (!known) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    // The realm file's standardFlowEnabled decides, as in Keycloak (the web client only).
    if (!known.standardFlow) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.',
      );
    }
    const client = known.clientId;
    if (!context.allowedRedirect(request.redirect_uri)) {
      throw new OAuthError(400, 'invalid_request', 'Invalid parameter: redirect_uri');
    }
    const redirectUri = request.redirect_uri;
    const fail = (error: string, description: string) =>
      clientRedirect(redirectUri, { error, error_description: description, state: request.state });
    if (request.response_type !== 'code') {
      return fail('unsupported_response_type', 'Only the authorization-code flow is supported');
    }
    if (!request.code_challenge || request.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'Missing parameter: code_challenge_method (S256)');
    }
    const alias = request.kc_idp_hint;
    if (alias !== 'google' && alias !== 'github') {
      return fail(
        'invalid_request',
        'This realm signs in through Google or GitHub here (kc_idp_hint)',
      );
    }
    const broker = context.federation.brokers[alias];
    if (!broker) {
      return fail(
        'temporarily_unavailable',
        `${brokerNames[alias]} sign-in is not configured on this server (its OAuth app credentials are not set)`,
      );
    }
    const state = randomBytes(24).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const brokerVerifier = randomBytes(32).toString('base64url');
    await context.store.saveFlow({
      _id: state,
      alias,
      clientId: client,
      clientRedirectUri: redirectUri,
      clientState: request.state ?? null,
      codeChallenge: request.code_challenge,
      brokerVerifier,
      nonce,
      createdAt: new Date(context.now()),
    });
    try {
      return await broker.authorizationUrl({
        state,
        nonce,
        codeChallenge: s256(brokerVerifier),
        redirectUri: context.brokerEndpoint(alias),
      });
    } catch (error) {
      return fail(
        'temporarily_unavailable',
        `${brokerNames[alias]} cannot be reached: ${(error as Error).message}`,
      );
    }
  }
}
