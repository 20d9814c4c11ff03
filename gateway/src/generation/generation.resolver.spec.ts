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

/** The generation service's side of the wire: what it was asked, and `answer` to each stop. */
function generationAnswering(answer: () => Observable<unknown>) {
  const asked: Array<{ subject: string; payload: unknown }> = [];
  const sender: MessageSender = {
    send: <TResult, TInput>(subject: string, payload: TInput) => {
      asked.push({ subject, payload });
      return answer() as Observable<TResult>;
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
