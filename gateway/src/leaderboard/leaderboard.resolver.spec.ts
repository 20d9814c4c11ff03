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
  notRated: { sameSubject: 1, unknownWriter: 0 },
  bootstrapRounds: 500,
  computedAt: '2025-06-01T12:00:00.000Z',
  computeMs: 42,
};

/** The community service's side of the wire: answers BOARD and records what it was asked. */
function communityAnswering() {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      return of(BOARD as TResult);
    },
  };
  return { services: new ServiceClient(sender), asked };
}

describe(LeaderboardResolver.name, () => {
  it("asks the community service for the stored board, all debates unless it's told pairs only", async () => {
    const { services, asked } = communityAnswering();
    const sut = new LeaderboardResolver(services);
    expect(await sut.leaderboard('MODEL')).toEqual(BOARD);
    expect(await sut.leaderboard('STYLE', true)).toEqual(BOARD);
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
        'apart { id label audience { rating } } notRated { sameSubject unknownWriter } } }',
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
