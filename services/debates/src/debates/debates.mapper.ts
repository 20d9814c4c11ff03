import type { Debate } from '@debate/contracts';
import type { SavedDebateDocument } from '../schemas/saved-debate.schema.js';

export function toDebate(document: SavedDebateDocument): Debate {
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
  };
}
