import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminError, OAuthError } from './errors.js';
import type { EmbeddedIssuer } from './issuer.js';
import { AUTH_SESSION_COOKIE, type LoginActionAnswer } from './login-actions.js';
import { ERROR_HEADER, renderPage } from './pages.js';
import { EmailTakenError } from './store.js';

const TokenForm = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('password'),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    username: z.string().min(1).max(320),
    password: z.string().min(1).max(1024),
    scope: z.string().optional(),
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    // A JWT, as Keycloak's are.
    refresh_token: z.string().min(1).max(8192),
  }),
  z.object({
    grant_type: z.literal('authorization_code'),
    client_id: z.string().optional(),
    code: z.string().min(1).max(512),
    code_verifier: z.string().min(43).max(128).optional(),
    redirect_uri: z.string().max(2048).optional(),
  }),
  z.object({
    grant_type: z.literal('client_credentials'),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  }),
]);

const text = z.string().max(2048).optional();
const AuthorizationQuery = z.object({
  client_id: text,
  response_type: text,
  redirect_uri: text,
  state: text,
  code_challenge: text,
  code_challenge_method: text,
  kc_idp_hint: text,
  scope: text,
  nonce: text,
});
const BrokerQuery = z.object({ code: text, state: text, error: text, error_description: text });
const BrokerAliasParam = z.object({ alias: z.enum(['google', 'github']) });

const LogoutForm = z.object({
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  refresh_token: z.string().min(1).max(8192),
});

const NewUser = z.object({
  email: z.email().max(320),
  username: z.string().optional(),
  enabled: z.boolean().optional(),
  emailVerified: z.boolean().optional(),
  credentials: z
    .array(
      z.object({
        type: z.literal('password'),
        value: z.string().max(1024),
        temporary: z.boolean().optional(),
      }),
    )
    .length(1),
});

const UserParam = z.object({ id: z.string() });
const SendVerifyEmailQuery = z.object({
  client_id: text,
  redirect_uri: text,
  /** Seconds. */
  lifespan: z.coerce.number().int().positive().max(31_536_000).optional(),
});
const ActionTokenQuery = z.object({
  key: z.string().max(8192).optional(),
  client_id: text,
  tab_id: text,
});
const RequiredActionQuery = z.object({ client_id: text, tab_id: text, execution: text });

/** The value of a cookie the browser sent, if it did. */
function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      return part.slice(separator + 1).trim();
    }
  }
  return undefined;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
}

/** client_id and client_secret from HTTP Basic, as confidential clients send them. */
function basicCredentials(request: FastifyRequest): { id?: string; secret?: string } {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return {};
  const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  return {
    ...(id ? { id: decodeURIComponent(id) } : {}),
    ...(secret ? { secret: decodeURIComponent(secret) } : {}),
  };
}

function fail(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof AdminError) {
    if (error.status >= 500) {
      // The cause's message only: an SMTP error carries the recipient's address in its fields.
      const cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
      reply.log.warn(`${error.message}: ${cause}`);
    }
    return reply.code(error.status).send(error.body);
  }
  if (error instanceof OAuthError) return reply.code(error.status).send(error.toJSON());
  if (error instanceof z.ZodError) {
    return reply.code(400).send({
      error: 'invalid_request',
      error_description: error.issues[0]?.message ?? 'Invalid request',
    });
  }
  throw error;
}

/**
 * A failure of a page the browser is on (the way in, the provider's way back): Keycloak's error
 * page, not a JSON document, with the way back to the web app's sign-in.
 */
function failPage(reply: FastifyReply, issuer: EmbeddedIssuer, error: unknown): FastifyReply {
  let status = 400;
  let message = 'Invalid request';
  if (error instanceof OAuthError) {
    status = error.status;
    message = error.description;
  } else if (error instanceof z.ZodError) {
    message = `Invalid parameter: ${String(error.issues[0]?.path[0] ?? 'request')}`;
  } else {
    throw error;
  }
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      renderPage(issuer.settings.displayName, {
        header: ERROR_HEADER,
        message,
        link: { href: issuer.applicationSignIn, text: 'Back to Application' },
      }),
    );
}

/**
 * Keycloak's paths for the realm, under the prefix the plugin is registered with (e.g. /auth):
 * discovery, JWKS, token, logout, userinfo, the pages a verify-email link leads to, and the
 * admin API's user creation, user lookup and send-verify-email.
 */
export async function issuerRoutes(
  fastify: FastifyInstance,
  issuer: EmbeddedIssuer,
): Promise<void> {
  await fastify.register(formBody);
  const realm = `/realms/${issuer.settings.name}`;
  const oidc = `${realm}/protocol/openid-connect`;
  fastify.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  fastify.get(`${realm}/.well-known/openid-configuration`, async () => ({
    issuer: issuer.issuerUrl,
    authorization_endpoint: `${issuer.issuerUrl}/protocol/openid-connect/auth`,
    token_endpoint: `${issuer.issuerUrl}/protocol/openid-connect/token`,
    userinfo_endpoint: `${issuer.issuerUrl}/protocol/openid-connect/userinfo`,
    end_session_endpoint: `${issuer.issuerUrl}/protocol/openid-connect/logout`,
    jwks_uri: `${issuer.issuerUrl}/protocol/openid-connect/certs`,
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      'password',
      'client_credentials',
    ],
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['openid', 'email', 'profile'],
  }));

  fastify.get(`${oidc}/certs`, async () => issuer.jwks());

  fastify.post(`${oidc}/token`, async (request, reply) => {
    try {
      const form = TokenForm.parse(request.body ?? {});
      const basic = basicCredentials(request);
      const clientId = basic.id ?? form.client_id;
      switch (form.grant_type) {
        case 'password':
          return await issuer.tokens.passwordGrant(
            clientId,
            basic.secret ?? form.client_secret,
            form.username,
            form.password,
          );
        case 'refresh_token':
          return await issuer.tokens.refreshGrant(
            clientId,
            basic.secret ?? form.client_secret,
            form.refresh_token,
          );
        case 'authorization_code':
          return await issuer.tokens.codeGrant(
            clientId,
            form.code,
            form.code_verifier,
            form.redirect_uri,
          );
        case 'client_credentials':
          return await issuer.tokens.clientCredentialsGrant(
            clientId,
            basic.secret ?? form.client_secret,
          );
      }
    } catch (error) {
      return fail(reply, error);
    }
  });

  // The browser's way in: to the provider, or back to the client with an error.
  fastify.get(`${oidc}/auth`, async (request, reply) => {
    try {
      const query = AuthorizationQuery.parse(request.query ?? {});
      return reply.redirect(await issuer.authorization.authorize(query), 302);
    } catch (error) {
      return failPage(reply, issuer, error);
    }
  });

  // The provider's way back (Keycloak's broker endpoint).
  fastify.get(`${realm}/broker/:alias/endpoint`, async (request, reply) => {
    try {
      const { alias } = BrokerAliasParam.parse(request.params);
      const query = BrokerQuery.parse(request.query ?? {});
      return reply.redirect(await issuer.brokering.brokerCallback(alias, query), 302);
    } catch (error) {
      return failPage(reply, issuer, error);
    }
  });

  fastify.post(`${oidc}/logout`, async (request, reply) => {
    try {
      const form = LogoutForm.parse(request.body ?? {});
      const basic = basicCredentials(request);
      await issuer.tokens.logout(
        basic.id ?? form.client_id,
        basic.secret ?? form.client_secret,
        form.refresh_token,
      );
      return reply.code(204).send();
    } catch (error) {
      return fail(reply, error);
    }
  });

  fastify.get(`${oidc}/userinfo`, async (request, reply) => {
    try {
      const token = bearer(request);
      if (!token) throw new OAuthError(401, 'invalid_token', 'Token verification failed');
      return await issuer.tokens.userinfo(token);
    } catch (error) {
      return fail(reply, error);
    }
  });

  /** A page or a redirect for the browser, with the realm's security headers. */
  const browserAnswer = (reply: FastifyReply, answer: LoginActionAnswer) => {
    reply
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'SAMEORIGIN')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-security-policy',
        "frame-src 'self'; frame-ancestors 'self'; object-src 'none';",
      );
    if ('location' in answer) return reply.redirect(answer.location, 302);
    if (answer.setCookie) reply.header('set-cookie', answer.setCookie);
    return reply
      .code(answer.status)
      .type('text/html; charset=utf-8')
      .send(renderPage(issuer.settings.displayName, answer.page));
  };

  // Where a verify-email link leads (Keycloak's action-token endpoint).
  fastify.get(`${realm}/login-actions/action-token`, async (request, reply) => {
    const query = ActionTokenQuery.safeParse(request.query ?? {});
    const answer = await issuer.loginActions.actionToken(
      query.success ? query.data : {},
      cookie(request, AUTH_SESSION_COOKIE),
      request.headers['user-agent'],
    );
    return browserAnswer(reply, answer);
  });

  fastify.get(`${realm}/login-actions/required-action`, async (request, reply) => {
    const query = RequiredActionQuery.safeParse(request.query ?? {});
    if (!query.success) {
      return browserAnswer(reply, {
        status: 400,
        page: { header: ERROR_HEADER, message: 'Invalid Request' },
      });
    }
    return browserAnswer(
      reply,
      await issuer.loginActions.requiredAction(query.data, cookie(request, AUTH_SESSION_COOKIE)),
    );
  });

  fastify.get(`/admin${realm}/identity-provider/instances`, async (request, reply) => {
    try {
      return await issuer.admin.identityProviders(bearer(request));
    } catch (error) {
      return fail(reply, error);
    }
  });

  fastify.get(`/admin${realm}/users/:id`, async (request, reply) => {
    try {
      const { id } = UserParam.parse(request.params);
      return await issuer.admin.getUser(bearer(request), id);
    } catch (error) {
      return fail(reply, error);
    }
  });

  fastify.put(`/admin${realm}/users/:id/send-verify-email`, async (request, reply) => {
    try {
      const { id } = UserParam.parse(request.params);
      const query = SendVerifyEmailQuery.parse(request.query ?? {});
      await issuer.admin.sendVerifyEmail(bearer(request), id, query);
      return reply.code(204).send();
    } catch (error) {
      return fail(reply, error);
    }
  });

  fastify.post(`/admin${realm}/users`, async (request, reply) => {
    try {
      const token = bearer(request);
      if (!token) throw new OAuthError(401, 'HTTP 401 Unauthorized', 'HTTP 401 Unauthorized');
      await issuer.verifyAccessToken(token).catch(() => {
        throw new OAuthError(401, 'HTTP 401 Unauthorized', 'HTTP 401 Unauthorized');
      });
      const body = NewUser.parse(request.body ?? {});
      const [credential] = body.credentials;
      const id = await issuer.admin.createUser(
        token,
        body.email,
        credential?.value ?? '',
        body.emailVerified ?? false,
      );
      return reply
        .code(201)
        .header('location', `${request.protocol}://${request.host}${request.url}/${id}`)
        .send();
    } catch (error) {
      if (error instanceof EmailTakenError)
        return reply.code(409).send({ errorMessage: error.message });
      return fail(reply, error);
    }
  });
}
