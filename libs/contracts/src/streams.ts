import type { ServiceName, Subject } from './subjects.js';
import { subjects } from './subjects.js';

/**
 * The JetStream streams of the platform: the facts other services must not miss. Each names
 * exactly its event subjects (never a request subject: a stream would answer the request with
 * its publish acknowledgement). Duplicates with the same Nats-Msg-Id within the window are
 * dropped by the server, which is what makes a publish retry-safe.
 */
export interface EventStream {
  readonly name: string;
  readonly owner: ServiceName;
  readonly subjects: readonly Subject[];
  readonly duplicateWindowMs: number;
}

export const eventStreams = {
  identity: {
    name: 'IDENTITY_EVENTS',
    owner: 'identity',
    subjects: [subjects.identity.user.created],
    duplicateWindowMs: 10 * 60_000,
  },
  debates: {
    name: 'DEBATES_EVENTS',
    owner: 'debates',
    subjects: [subjects.debates.debate.shared, subjects.debates.debate.unshared],
    duplicateWindowMs: 10 * 60_000,
  },
} as const satisfies Record<string, EventStream>;

export function streamOf(subject: Subject): EventStream | undefined {
  return Object.values(eventStreams as Record<string, EventStream>).find((stream) =>
    stream.subjects.includes(subject),
  );
}
