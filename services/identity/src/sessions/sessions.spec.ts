import { subjects, userCreatedEvent } from '@debate/contracts';
import { InProcessEventLog, inProcessTransport } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';

// The sessions themselves (sign-up, sign-in, refusals, renewal, sign-out, the once-only
// announcement) are held to Keycloak's answers by the sign-in suite, which runs against the
// embedded issuer and the real Keycloak alike: platform/test/sign-in-suite.ts.

describe('the identity event log in single-process mode', () => {
  it('keeps one event per id within the window, as JetStream does', async () => {
    const transport = inProcessTransport();
    if (transport.kind !== 'in-process') throw new Error('unreachable');
    const received: string[] = [];
    transport.bus.subscribe(subjects.identity.user.created, undefined, (data) =>
      received.push(data),
    );
    const log = new InProcessEventLog(transport.bus);
    const payload = { userId: 'u1', email: 'u1@example.org', createdAt: new Date(0).toISOString() };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => log.publish(userCreatedEvent, payload, 'u1')),
    );
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([JSON.stringify(payload)]);
  });
});
