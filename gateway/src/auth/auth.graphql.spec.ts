import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type INestApplication, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule, Query, Resolver, Subscription } from '@nestjs/graphql';
import { MercuriusDriver } from '@nestjs/mercurius';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { subscriptionContext } from '../graphql.module.js';
import { AuthDecisionGuard } from './auth-decision.guard.js';
import { Authenticated, Public } from './auth.decorators.js';
import { CurrentUser } from './current-user.js';
import { type AuthenticatedUser, GATEWAY_AUDIENCE, TokenVerifier } from './token-verifier.js';
import { startGraphqlApp } from '../graphql-app.spec-support.js';

const ISSUER = 'http://localhost:3000/auth/realms/debate';

@Resolver()
class ProbeResolver {
  @Public()
  @Query(() => String)
  open(): string {
    return 'anyone';
  }

  @Authenticated()
  @Query(() => String)
  whoami(@CurrentUser() user: AuthenticatedUser): string {
    return user.email;
  }

  @Authenticated()
  @Subscription(() => String)
  async *greetings(@CurrentUser() user: AuthenticatedUser): AsyncGenerator<{ greetings: string }> {
    yield { greetings: `hello ${user.email}` };
  }
}

interface Answer {
  data?: Record<string, string> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

// The guard in the real GraphQL pipeline (Mercurius on Fastify), as the gateway runs it.
describe('@Authenticated() operations over GraphQL', () => {
  let app: NestFastifyApplication;
  let realmKey: CryptoKey;
  let url: string;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    realmKey = privateKey;
    const jwks = createLocalJWKSet({
      keys: [{ ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' }],
    });
    @Module({
      imports: [
        GraphQLModule.forRoot({
          driver: MercuriusDriver,
          autoSchemaFile: true,
          subscription: { onConnect: subscriptionContext },
        }),
      ],
      providers: [
        ProbeResolver,
        { provide: APP_GUARD, useClass: AuthDecisionGuard },
        { provide: TokenVerifier, useValue: new TokenVerifier({ issuer: ISSUER, jwks }) },
      ],
    })
    class ProbeModule {}
    ({ app, url } = await startGraphqlApp(ProbeModule));
  });

  afterAll(async () => {
    await (app as INestApplication | undefined)?.close();
  });

  async function ask(query: string, authorization?: string): Promise<Answer> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as Answer;
  }

  const userToken = (key: CryptoKey = realmKey) =>
    new SignJWT({ typ: 'Bearer', email: 'ada@example.org', realm_access: { roles: ['user'] } })
      .setAudience(GATEWAY_AUDIENCE)
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setIssuer(ISSUER)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  it('serves a public operation without a token', async () => {
    expect((await ask('{ open }')).data).toEqual({ open: 'anyone' });
  });

  it('asks for sign-in without a token', async () => {
    const answer = await ask('{ whoami }');
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toBe('Sign in required');
  });

  it('answers with the user a valid token names', async () => {
    expect((await ask('{ whoami }', `Bearer ${await userToken()}`)).data).toEqual({
      whoami: 'ada@example.org',
    });
  });

  it('refuses a token signed with another key', async () => {
    const other = (await generateKeyPair('RS256')).privateKey;
    const answer = await ask('{ whoami }', `Bearer ${await userToken(other)}`);
    expect(answer.errors?.[0]?.message).toBe('The access token is not valid');
  });

  async function subscribeOnce(authorization?: string): Promise<string> {
    const client = createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: authorization ? { authorization } : {},
    });
    try {
      return await new Promise<string>((resolve, reject) => {
        client.subscribe<{ greetings: string }>(
          { query: 'subscription { greetings }' },
          {
            next: (result) =>
              result.errors
                ? reject(new Error(result.errors.map((error) => error.message).join('; ')))
                : resolve(result.data?.greetings ?? ''),
            error: (error) =>
              reject(error instanceof Error ? error : new Error(JSON.stringify(error))),
            complete: () => undefined,
          },
        );
      });
    } finally {
      await client.dispose();
    }
  }

  it('takes a subscription token from connection_init', async () => {
    await expect(subscribeOnce(`Bearer ${await userToken()}`)).resolves.toBe(
      'hello ada@example.org',
    );
  });

  it('refuses a subscription without a token', async () => {
    await expect(subscribeOnce()).rejects.toThrow(/Sign in required/);
  });
});
