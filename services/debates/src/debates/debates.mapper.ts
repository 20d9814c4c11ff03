import type { Debate, SharedDebate } from '@debate/contracts';
import type { SavedDebateDocument } from '../schemas/saved-debate.schema.js';

/** The debate as it is announced when it goes public: its author's plan included. */
export function toSharedDebate(document: SavedDebateDocument): SharedDebate {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { _id, timestamp, sharedAt, pendingEvent, deletedAt, ...rest } = document;
  return {
    ...rest,
    id: _id,
    timestamp: timestamp.toISOString(),
    sharedAt: sharedAt?.toISOString() ?? null,
    // Absent on a debate saved before they were kept.
    verdict: rest.verdict ?? null,
    debateFormat: rest.debateFormat ?? null,
    moderatorEnabled: rest.moderatorEnabled ?? null,
    rematchOf: rest.rematchOf ?? null,
    stopped: rest.stopped ?? false,
  };
}

/** The debate as its owner reads it: the author's plan is stored and announced, not answered. */
export function toDebate(document: SavedDebateDocument): Debate {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { isPro, ...debate } = toSharedDebate(document);
  return debate;
}
