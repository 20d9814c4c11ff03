import { type JudgeFigure, type JudgeRecord, type JudgesReport, subjects } from '@debate/contracts';
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
import { JudgesResolver } from './judges.resolver.js';

const figure = (value: number | null, low: number | null, high: number | null, count: number) =>
  ({ value, low, high, count }) satisfies JudgeFigure;

const EMPTY = figure(null, null, null, 0);

const OFFLINE: JudgeRecord = {
  judgeId: 'offline',
  label: 'Offline judge',
  kind: 'offline',
  debates: 12,
  positionConsistency: figure(0.82, 0.74, 0.88, 12),
  firstShownMargin: figure(1.8, 0.9, 2.7, 12),
  pairwiseAgreement: figure(0.5, 0.3, 0.7, 24),
  fleissKappa: figure(0.21, -0.05, 0.44, 12),
  selfPreference: EMPTY,
  lengthSlope: figure(0.42, 0.1, 0.7, 11),
  readersMinds: { agreement: figure(0.6, 0.3, 0.85, 5), kappa: figure(0.2, -0.3, 0.7, 5) },
  readersVotes: { agreement: EMPTY, kappa: EMPTY },
};

const REPORT: JudgesReport = {
  judges: [OFFLINE],
  all: { ...OFFLINE, judgeId: null, label: 'All judges', kind: null },
  debates: 12,
  bootstrapRounds: 500,
  computedAt: '2026-11-27T12:00:00.000Z',
  computeMs: 31,
};

/** The community service's side of the wire: answers REPORT and records what it was asked. */
function communityAnswering() {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      return of(REPORT as TResult);
    },
  };
  return { services: new ServiceClient(sender), asked };
}

describe(JudgesResolver.name, () => {
  it("asks the community service for the stored judges' record, and answers it", async () => {
    const { services, asked } = communityAnswering();
    expect(await new JudgesResolver(services).judges()).toEqual(REPORT);
    expect(asked).toEqual([{ subject: subjects.community.judges.get, payload: {} }]);
  });
});

interface Answer {
  data?: { judges: Record<string, unknown> } | null;
  errors?: Array<{ message: string }>;
}

const FIGURE = '{ value low high count }';
const RECORD =
  `{ judgeId label kind debates positionConsistency ${FIGURE} firstShownMargin ${FIGURE} ` +
  `pairwiseAgreement ${FIGURE} fleissKappa ${FIGURE} selfPreference ${FIGURE} ` +
  `lengthSlope ${FIGURE} readersMinds { agreement ${FIGURE} kappa ${FIGURE} } ` +
  `readersVotes { agreement ${FIGURE} kappa ${FIGURE} } }`;

// The query in the real GraphQL pipeline (Mercurius on Fastify, the auth guard), as the gateway
// runs it.
describe('the judges query over GraphQL', () => {
  let app: NestFastifyApplication;
  let url: string;
  const community = communityAnswering();

  beforeAll(async () => {
    @Module({
      imports: [GraphQLModule.forRoot({ driver: MercuriusDriver, autoSchemaFile: true })],
      providers: [
        JudgesResolver,
        { provide: ServiceClient, useValue: community.services },
        { provide: APP_GUARD, useClass: AuthDecisionGuard },
      ],
    })
    class JudgesTestModule {}
    ({ app, url } = await startGraphqlApp(JudgesTestModule));
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

  it('answers anyone, signed in or not, every figure with its interval and count, nulls kept', async () => {
    const answer = await ask(
      `{ judges { debates bootstrapRounds computedAt judges ${RECORD} all ${RECORD} } }`,
    );
    expect(answer.errors).toBeUndefined();
    // Everything but computeMs, which the API does not show.
    expect(answer.data?.judges).toEqual({
      judges: REPORT.judges,
      all: REPORT.all,
      debates: 12,
      bootstrapRounds: 500,
      computedAt: REPORT.computedAt,
    });
    expect(community.asked).toEqual([{ subject: subjects.community.judges.get, payload: {} }]);
  });

  it('refuses a field the report does not have, asking no service', async () => {
    const answer = await ask('{ judges { computeMs } }');
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.message).toMatch(/computeMs/);
    expect(community.asked).toEqual([]);
  });
});
