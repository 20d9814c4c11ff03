import { NO_SUCH_RUN, subjects } from '@debate/contracts';
import { type MessageSender, ServiceClient } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { GraphQLError } from 'graphql';
import { type Observable, of, throwError } from 'rxjs';
import { SubscriptionLimits } from '../query-limits/subscription-limits.js';
import { GenerationResolver } from './generation.resolver.js';

const ada = { id: 'ada', email: 'ada@example.org', emailVerified: true, roles: [] };
/** A run id as the generation instance `1a2b3c4d` makes them. */
const runId = '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';

/**
 * The services' side of the wire: what they were asked, and `answer` to each request (or the
 * answer `bySubject` gives for its subject).
 */
function generationAnswering(
  answer: () => Observable<unknown>,
  bySubject: Readonly<Record<string, () => Observable<unknown>>> = {},
) {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      return (bySubject[subject] ?? answer)() as Observable<TResult>;
    },
  };
  const resolver = new GenerationResolver(new ServiceClient(sender), new SubscriptionLimits(5, 5));
  return { resolver, asked };
}

async function refusal(promise: Promise<unknown>): Promise<GraphQLError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof GraphQLError))
    throw new Error(`expected a GraphQL error, got ${String(error)}`);
  return error;
}

describe(`${GenerationResolver.name}.stopDebate`, () => {
  it("asks the instance that has the run to stop the user's run, and answers what it did", async () => {
    const { resolver, asked } = generationAnswering(() =>
      of({ stopped: true, freeDebateUsed: false }),
    );
    expect(await resolver.stopDebate(runId, ada)).toEqual({
      stopped: true,
      freeDebateUsed: false,
    });
    expect(asked).toEqual([
      { subject: `${subjects.generation.run.stop}.1a2b3c4d`, payload: { runId, userId: 'ada' } },
    ]);
  });

  it("says NOT_FOUND for someone else's run, and for an id no instance made", async () => {
    const { resolver, asked } = generationAnswering(() =>
      throwError(() => ({ status: 'error', message: NO_SUCH_RUN })),
    );
    const notTheirs = await refusal(resolver.stopDebate(runId, ada));
    expect([notTheirs.message, notTheirs.extensions.code]).toEqual([NO_SUCH_RUN, 'NOT_FOUND']);
    const made = await refusal(resolver.stopDebate('not-a-run', ada));
    expect(made.extensions.code).toBe('NOT_FOUND');
    const invalid = await refusal(resolver.stopDebate('x'.repeat(200), ada));
    expect(invalid.extensions.code).toBe('BAD_USER_INPUT');
    // Only the first was asked of a generation instance.
    expect(asked).toHaveLength(1);
  });
});

describe(`${GenerationResolver.name}.submitTurn`, () => {
  const text = 'Cars make the centre loud, dangerous and slow for everyone who walks.';

  it("sends the user's turn to the instance that has the run, and says true once accepted", async () => {
    const { resolver, asked } = generationAnswering(() => of({ accepted: true }));
    expect(await resolver.submitTurn(runId, 1, text, ada)).toBe(true);
    expect(asked).toEqual([
      {
        subject: `${subjects.generation.run.submitTurn}.1a2b3c4d`,
        payload: { runId, turn: 1, text, userId: 'ada' },
      },
    ]);
  });

  it.each([
    [
      'too_short',
      'TURN_TOO_SHORT',
      'Your turn is too short: at least 40 words for Constructive Arguments (you wrote 12).',
    ],
    [
      'too_long',
      'TURN_TOO_LONG',
      'Your turn is too long: at most 400 words for Constructive Arguments (you wrote 512).',
    ],
    ['not_your_turn', 'NOT_YOUR_TURN', 'It is not your turn to speak.'],
  ])('says a %s refusal as %s, with its message', async (reason, code, message) => {
    const { resolver } = generationAnswering(() => of({ accepted: false, reason, message }));
    const refused = await refusal(resolver.submitTurn(runId, 1, text, ada));
    expect([refused.message, refused.extensions.code]).toEqual([message, code]);
  });

  it("says NOT_FOUND for someone else's run, and refuses a text too long before asking", async () => {
    const { resolver, asked } = generationAnswering(() =>
      throwError(() => ({ status: 'error', message: NO_SUCH_RUN })),
    );
    const notTheirs = await refusal(resolver.submitTurn(runId, 1, text, ada));
    expect([notTheirs.message, notTheirs.extensions.code]).toEqual([NO_SUCH_RUN, 'NOT_FOUND']);
    const unknown = await refusal(resolver.submitTurn('not-a-run', 1, text, ada));
    expect(unknown.extensions.code).toBe('NOT_FOUND');
    const tooLong = await refusal(resolver.submitTurn(runId, 1, 'a'.repeat(20_001), ada));
    expect(tooLong.extensions.code).toBe('BAD_USER_INPUT');
    const negative = await refusal(resolver.submitTurn(runId, -1, text, ada));
    expect(negative.extensions.code).toBe('BAD_USER_INPUT');
    expect(asked).toHaveLength(1);
  });
});

describe(`${GenerationResolver.name}.startDebate against a model`, () => {
  const side = (model: string, stance: number) => ({
    model,
    stance,
    rhetoricStyle: 'standard',
    personality: '',
  });
  const input = {
    topic: 'Should cities ban cars?',
    debateFormat: 'structured',
    moderatorEnabled: false,
    first: side('offline', 0.8),
    second: side('person', -0.8),
    person: 'second' as const,
  };

  /** The identity service knows Ada as `displayName`; the generation service starts the run. */
  function answeringWith(displayName: string | null) {
    return generationAnswering(() => of(undefined), {
      [subjects.identity.user.get]: () =>
        of({
          user: {
            id: 'ada',
            email: 'ada@example.org',
            displayName,
            photoURL: null,
            isPro: false,
            createdAt: '2024-01-01T00:00:00.000Z',
          },
        }),
      [subjects.generation.run.start]: () => of({ started: true, runId }),
    });
  }

  it("names the person's side from their account, not from the browser", async () => {
    const { resolver, asked } = answeringWith('Ada Lovelace');
    expect(await resolver.startDebate(input, ada)).toBe(runId);
    const started = asked.find((call) => call.subject === subjects.generation.run.start);
    expect(started?.payload).toMatchObject({
      settings: { person: { speaker: 'second', displayName: 'Ada Lovelace' } },
    });
  });

  it('names a person without a display name as the anonymous author', async () => {
    const { resolver, asked } = answeringWith(null);
    await resolver.startDebate(input, ada);
    const started = asked.find((call) => call.subject === subjects.generation.run.start);
    expect(started?.payload).toMatchObject({
      settings: { person: { displayName: 'Anonymous User' } },
    });
  });

  it("refuses the person's model on a side that is not the person's", async () => {
    const { resolver, asked } = answeringWith('Ada');
    const refused = await refusal(resolver.startDebate({ ...input, person: null }, ada));
    expect(refused.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'second.model' });
    expect(asked.some((call) => call.subject === subjects.generation.run.start)).toBe(false);
  });
});
