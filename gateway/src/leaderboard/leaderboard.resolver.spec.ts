import {
  type GenerationCatalog,
  type LeaderboardBoard,
  type PeopleListing,
  rateLimitsSchema,
  subjects,
  type User,
} from '@debate/contracts';
import { inProcessTransport, type MessageSender, ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { MercuriusDriver } from '@nestjs/mercurius';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { GraphQLError } from 'graphql';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { of } from 'rxjs';
import { AuthDecisionGuard } from '../auth/auth-decision.guard.js';
import { type AuthenticatedUser, GATEWAY_AUDIENCE, TokenVerifier } from '../auth/token-verifier.js';
import { startGraphqlApp } from '../graphql-app.spec-support.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { LeaderboardResolver } from './leaderboard.resolver.js';

const BOARD: LeaderboardBoard = {
  subject: 'MODEL',
  pairsOnly: false,
  controlled: false,
  rows: [
    {
      id: 'gpt-4o',
      label: 'GPT-4o',
      rating: 1080.5,
      low: 1020.25,
      high: 1141,
      debates: 12,
      pairs: 3,
      audience: { rating: 1010, low: 950, high: 1070, debates: 4 },
      kind: null,
    },
  ],
  apart: [
    {
      id: 'offline',
      label: 'Offline speaker',
      rating: 940,
      low: 880,
      high: 1000,
      debates: 2,
      pairs: 0,
      audience: null,
      kind: null,
    },
  ],
  debates: 12,
  apartDebates: 2,
  notRated: { sameSubject: 1, notRecorded: 4, personalityHints: 2, dailyLimit: 3 },
  bootstrapRounds: 500,
  computedAt: '2025-06-01T12:00:00.000Z',
  computeMs: 42,
};

/**
 * The community service's side of the wire: answers `answer` (BOARD unless told otherwise) and
 * records what it was asked.
 */
function communityAnswering() {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const community = { answer: BOARD as unknown };
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      return of(community.answer as TResult);
    },
  };
  return Object.assign(community, { services: new ServiceClient(sender), asked });
}

/** BOARD as the gateway answers it: with the deprecated unknownWriter, notRecorded's count. */
const ANSWERED = { ...BOARD, notRated: { ...BOARD.notRated, unknownWriter: 4 } };

describe(LeaderboardResolver.name, () => {
  it("asks the community service for the stored board, all debates as rated unless it's told pairs only or controlled", async () => {
    const { services, asked } = communityAnswering();
    const sut = new LeaderboardResolver(services);
    expect(await sut.leaderboard('MODEL')).toEqual(ANSWERED);
    expect(await sut.leaderboard('STYLE', true)).toEqual(ANSWERED);
    expect(await sut.leaderboard('PEOPLE', false, true)).toEqual(ANSWERED);
    expect(asked).toEqual([
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'MODEL', pairsOnly: false, controlled: false },
      },
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'STYLE', pairsOnly: true, controlled: false },
      },
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'PEOPLE', pairsOnly: false, controlled: true },
      },
    ]);
  });
});

interface Answer {
  data?: { leaderboard: Record<string, unknown> } | null;
  errors?: Array<{ message: string }>;
}

// The query in the real GraphQL pipeline (Mercurius on Fastify, the auth guard), as the gateway
// runs it.
describe('the leaderboard query over GraphQL', () => {
  let app: NestFastifyApplication;
  let url: string;
  const community = communityAnswering();

  beforeAll(async () => {
    @Module({
      imports: [GraphQLModule.forRoot({ driver: MercuriusDriver, autoSchemaFile: true })],
      providers: [
        LeaderboardResolver,
        { provide: ServiceClient, useValue: community.services },
        { provide: APP_GUARD, useClass: AuthDecisionGuard },
      ],
    })
    class LeaderboardTestModule {}
    ({ app, url } = await startGraphqlApp(LeaderboardTestModule));
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(() => {
    community.asked.length = 0;
    community.answer = BOARD;
  });

  async function ask(query: string): Promise<Answer> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as Answer;
  }

  it('answers anyone, signed in or not, with the rows and the rows rated apart', async () => {
    const answer = await ask(
      '{ leaderboard(subject: MODEL) { subject pairsOnly controlled computedAt bootstrapRounds ' +
        'rows { id label rating low high debates pairs audience { rating low high debates } kind } ' +
        'apart { id label audience { rating } } notRated { sameSubject notRecorded personalityHints dailyLimit } } }',
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.leaderboard).toEqual({
      subject: 'MODEL',
      pairsOnly: false,
      controlled: false,
      computedAt: BOARD.computedAt,
      bootstrapRounds: 500,
      rows: BOARD.rows,
      apart: [{ id: 'offline', label: 'Offline speaker', audience: null }],
      notRated: BOARD.notRated,
    });
    expect(community.asked).toEqual([
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'MODEL', pairsOnly: false, controlled: false },
      },
    ]);
  });

  it('asks for the controlled board when told, and answers it as such', async () => {
    community.answer = { ...BOARD, subject: 'STYLE', pairsOnly: true, controlled: true };
    const answer = await ask(
      '{ leaderboard(subject: STYLE, pairsOnly: true, controlled: true) { subject pairsOnly controlled } }',
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.leaderboard).toEqual({
      subject: 'STYLE',
      pairsOnly: true,
      controlled: true,
    });
    expect(community.asked).toEqual([
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'STYLE', pairsOnly: true, controlled: true },
      },
    ]);
  });

  it("reads a last version's community service's board, and answers the deprecated unknownWriter", async () => {
    // A community service of the last version counted unknownWriter, and no other reason.
    community.answer = { ...BOARD, notRated: { sameSubject: 1, unknownWriter: 5 } };
    const notRated = '{ sameSubject notRecorded personalityHints dailyLimit unknownWriter }';
    const answer = await ask(`{ leaderboard(subject: MODEL) { debates notRated ${notRated} } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.leaderboard).toEqual({
      debates: 12,
      notRated: {
        sameSubject: 1,
        notRecorded: 5,
        personalityHints: 0,
        dailyLimit: 0,
        unknownWriter: 5,
      },
    });
    // And from this version's: unknownWriter is notRecorded, for a page of the last version.
    community.answer = BOARD;
    const now = await ask(`{ leaderboard(subject: MODEL) { notRated ${notRated} } }`);
    expect(now.data?.leaderboard).toEqual({ notRated: ANSWERED.notRated });
  });

  it.each([
    ['a subject it does not know', '{ leaderboard(subject: JUDGE) { debates } }', /JUDGE/],
    [
      'no subject',
      '{ leaderboard { debates } }',
      /argument "subject" of type "LeaderboardSubject!" is required/,
    ],
    [
      'a pairsOnly that is not a boolean',
      '{ leaderboard(subject: STYLE, pairsOnly: "yes") { debates } }',
      /Boolean/,
    ],
    [
      'a controlled that is not a boolean',
      '{ leaderboard(subject: MODEL, controlled: 1) { debates } }',
      /Boolean/,
    ],
  ])('refuses %s with a clear error, asking no service', async (_case, query, message) => {
    const answer = await ask(query);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(message);
    expect(community.asked).toEqual([]);
  });
});

const ISSUER = 'http://localhost:3000/auth/realms/debate';
const ADA: AuthenticatedUser = {
  id: 'user-ada',
  email: 'ada@example.org',
  emailVerified: true,
  roles: ['user'],
};

/** What the services answer the listing's requests with, by subject, and what they were asked. */
function servicesForListing() {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const state = {
    displayName: 'Ada Lovelace' as string | null,
    listing: { listed: false, name: null, ratedDebates: 2 } as PeopleListing,
  };
  const catalog: Pick<GenerationCatalog, 'models'> = {
    models: [{ id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'single' }],
  };
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      if (subject === subjects.identity.user.get) {
        const user: User = {
          id: ADA.id,
          email: ADA.email,
          displayName: state.displayName,
          photoURL: null,
          isPro: false,
          createdAt: '2025-06-01T12:00:00.000Z',
          emailVerified: true,
          mustVerifyEmail: false,
        };
        return of({ user } as TResult);
      }
      if (subject === subjects.generation.catalog.get) {
        return of({
          rhetoricStyles: ['formal'],
          debateFormats: ['Oxford'],
          searcher: false,
          localModel: null,
          roundTitles: ['Opening'],
          topics: ['Cats'],
          ...catalog,
        } as TResult);
      }
      if (subject === subjects.community.listing.set) {
        const request = payload as { listed: boolean; name?: string };
        state.listing = {
          ...state.listing,
          listed: request.listed,
          name: request.listed ? (request.name ?? null) : null,
        };
      }
      return of(state.listing as TResult);
    },
  };
  return Object.assign(state, { services: new ServiceClient(sender), asked });
}

/** What a resolver call was refused with (BAD_USER_INPUT and its message), or null. */
async function refusal(call: Promise<unknown>): Promise<{ code: unknown; message: string } | null> {
  try {
    await call;
    return null;
  } catch (error) {
    const refused = error as GraphQLError;
    return { code: refused.extensions?.['code'], message: refused.message };
  }
}

describe(`${LeaderboardResolver.name}: the People board listing`, () => {
  it('answers the user’s listing from the community service', async () => {
    const services = servicesForListing();
    const sut = new LeaderboardResolver(services.services);
    expect(await sut.peopleListing(ADA)).toEqual({ listed: false, name: null, ratedDebates: 2 });
    expect(services.asked).toEqual([
      { subject: subjects.community.listing.get, payload: { userId: ADA.id } },
    ]);
  });

  it('lists the user under the name given, trimmed, or else under their display name', async () => {
    const services = servicesForListing();
    const sut = new LeaderboardResolver(services.services);
    expect(await sut.setPeopleListing(true, ADA, '  Ada L.  ')).toEqual({
      listed: true,
      name: 'Ada L.',
      ratedDebates: 2,
    });
    expect(services.asked.at(-1)).toEqual({
      subject: subjects.community.listing.set,
      payload: { userId: ADA.id, listed: true, name: 'Ada L.' },
    });
    expect(await sut.setPeopleListing(true, ADA, null)).toMatchObject({ name: 'Ada Lovelace' });
    expect(services.asked.at(-1)?.payload).toEqual({
      userId: ADA.id,
      listed: true,
      name: 'Ada Lovelace',
    });
    // Off the board: no name needed, none asked for.
    services.asked.length = 0;
    expect(await sut.setPeopleListing(false, ADA, null)).toMatchObject({ listed: false });
    expect(services.asked).toEqual([
      {
        subject: subjects.community.listing.set,
        payload: { userId: ADA.id, listed: false },
      },
    ]);
  });

  it('refuses to list a user with neither a name nor a display name', async () => {
    const services = servicesForListing();
    services.displayName = '   ';
    const sut = new LeaderboardResolver(services.services);
    expect(await refusal(sut.setPeopleListing(true, ADA, null))).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'Choose the name to be listed under.',
    });
    services.displayName = null;
    expect(await refusal(sut.setPeopleListing(true, ADA))).toMatchObject({
      message: 'Choose the name to be listed under.',
    });
    expect(services.asked.filter(({ subject }) => subject.startsWith('community.'))).toEqual([]);
  });

  it.each([
    ['an empty name', '   ', 'Choose the name to be listed under.'],
    ['a name over 80 characters', 'a'.repeat(81), 'A name on the board has at most 80 characters.'],
    [
      'the People row’s name',
      'pEOPLE',
      '"People" is the row of everyone pooled: choose another name.',
    ],
    [
      'a model’s name',
      ' gpt-4O ',
      '"gpt-4O" is a model\'s name on the board: choose another name.',
    ],
  ])('refuses %s, changing nothing', async (_case, name, message) => {
    const services = servicesForListing();
    const sut = new LeaderboardResolver(services.services);
    expect(await refusal(sut.setPeopleListing(true, ADA, name))).toEqual({
      code: 'BAD_USER_INPUT',
      message,
    });
    expect(
      services.asked.filter(({ subject }) => subject === subjects.community.listing.set),
    ).toEqual([]);
  });
});

interface ListingAnswer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

// The listing in the real GraphQL pipeline: signed in only, and limited per account.
describe('the People board listing over GraphQL', () => {
  let app: NestFastifyApplication;
  let url: string;
  let token: (subject: string) => Promise<string>;
  const services = servicesForListing();

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwks = createLocalJWKSet({
      keys: [{ ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' }],
    });
    token = (subject) =>
      new SignJWT({ typ: 'Bearer', email: 'ada@example.org', realm_access: { roles: ['user'] } })
        .setAudience(GATEWAY_AUDIENCE)
        .setProtectedHeader({ alg: 'RS256', kid: 'k' })
        .setIssuer(ISSUER)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
    const limits = rateLimitsSchema.parse('{"setPeopleListing":{"account":"2/1m"}}');
    @Module({
      imports: [GraphQLModule.forRoot({ driver: MercuriusDriver, autoSchemaFile: true })],
      providers: [
        LeaderboardResolver,
        { provide: ServiceClient, useValue: services.services },
        { provide: APP_GUARD, useClass: AuthDecisionGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: TokenVerifier, useValue: new TokenVerifier({ issuer: ISSUER, jwks }) },
        { provide: RateLimiter, useValue: new RateLimiter(limits, inProcessTransport()) },
      ],
    })
    class ListingTestModule {}
    ({ app, url } = await startGraphqlApp(ListingTestModule));
  });

  afterAll(async () => {
    await app?.close();
  });

  async function ask(query: string, subject?: string): Promise<ListingAnswer> {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(subject ? { authorization: `Bearer ${await token(subject)}` } : {}),
      },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as ListingAnswer;
  }

  const set =
    'mutation { setPeopleListing(listed: true, name: "Ada") { listed name ratedDebates } }';

  it('asks for sign-in', async () => {
    expect((await ask('{ peopleListing { listed } }')).errors?.[0]?.message).toBe(
      'Sign in required',
    );
    expect((await ask(set)).errors?.[0]?.message).toBe('Sign in required');
  });

  it('sets and reads the listing, and limits the changes per account', async () => {
    expect((await ask(set, 'user-ada')).data).toEqual({
      setPeopleListing: { listed: true, name: 'Ada', ratedDebates: 2 },
    });
    expect((await ask('{ peopleListing { listed name } }', 'user-ada')).data).toEqual({
      peopleListing: { listed: true, name: 'Ada' },
    });
    expect((await ask(set, 'user-ada')).errors).toBeUndefined();
    // The third change within the minute (the limit here is 2): refused before it runs.
    services.asked.length = 0;
    const limited = await ask(set, 'user-ada');
    expect(limited.errors?.[0]?.extensions?.['code']).toBe('RATE_LIMITED');
    expect(services.asked).toEqual([]);
    // Reading is not limited, and another account has its own count.
    expect((await ask('{ peopleListing { listed } }', 'user-ada')).errors).toBeUndefined();
    expect((await ask(set, 'user-bob')).errors).toBeUndefined();
  });
});
