import { type LeaderboardBoard, subjects } from '@debate/contracts';
import { type MessageSender, ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { MercuriusDriver } from '@nestjs/mercurius';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { of } from 'rxjs';
import { AuthDecisionGuard } from '../auth/auth-decision.guard.js';
import { startGraphqlApp } from '../graphql-app.spec-support.js';
import { LeaderboardResolver } from './leaderboard.resolver.js';

const BOARD: LeaderboardBoard = {
  subject: 'MODEL',
  pairsOnly: false,
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
  it("asks the community service for the stored board, all debates unless it's told pairs only", async () => {
    const { services, asked } = communityAnswering();
    const sut = new LeaderboardResolver(services);
    expect(await sut.leaderboard('MODEL')).toEqual(ANSWERED);
    expect(await sut.leaderboard('STYLE', true)).toEqual(ANSWERED);
    expect(asked).toEqual([
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'MODEL', pairsOnly: false },
      },
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'STYLE', pairsOnly: true },
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
      '{ leaderboard(subject: MODEL) { subject pairsOnly computedAt bootstrapRounds ' +
        'rows { id label rating low high debates pairs audience { rating low high debates } } ' +
        'apart { id label audience { rating } } notRated { sameSubject notRecorded personalityHints dailyLimit } } }',
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.leaderboard).toEqual({
      subject: 'MODEL',
      pairsOnly: false,
      computedAt: BOARD.computedAt,
      bootstrapRounds: 500,
      rows: BOARD.rows,
      apart: [{ id: 'offline', label: 'Offline speaker', audience: null }],
      notRated: BOARD.notRated,
    });
    expect(community.asked).toEqual([
      {
        subject: subjects.community.leaderboard.get,
        payload: { subject: 'MODEL', pairsOnly: false },
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
  ])('refuses %s with a clear error, asking no service', async (_case, query, message) => {
    const answer = await ask(query);
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(message);
    expect(community.asked).toEqual([]);
  });
});
