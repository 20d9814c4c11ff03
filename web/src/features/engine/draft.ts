import type { DebateSettingsInput, SpeakerSettingsInput } from '../../gql/graphql';

/**
 * The engine's draft (the topic and the settings), kept in the tab's session storage so that it
 * survives the trip through sign-in (a page of its own, or a provider's redirect) and a reload.
 */
export type EngineDraft = Omit<DebateSettingsInput, 'first' | 'second' | 'person'> & {
  readonly first: SpeakerSettingsInput;
  readonly second: SpeakerSettingsInput;
  /** 'You against a model', when chosen: the user's side, who opens, and the model's settings. */
  readonly versus?: VersusDraft | null;
};

interface VersusDraft {
  readonly personFor: boolean;
  readonly personOpens: boolean;
  readonly opponent: SpeakerSettingsInput;
}

function versusOf(value: unknown): VersusDraft | null {
  if (typeof value !== 'object' || value === null) return null;
  const { personFor, personOpens, opponent } = value as Record<string, unknown>;
  const model = speakerOf(opponent);
  if (typeof personFor !== 'boolean' || typeof personOpens !== 'boolean' || !model) return null;
  return { personFor, personOpens, opponent: model };
}

const ENGINE_DRAFT_KEY = 'engineDraft';

const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;

function speakerOf(value: unknown): SpeakerSettingsInput | null {
  if (typeof value !== 'object' || value === null) return null;
  const { model, stance, rhetoricStyle, personality } = value as Record<string, unknown>;
  if (!isText(model, 128) || !isText(rhetoricStyle, 64) || !isText(personality, 500)) return null;
  if (typeof stance !== 'number' || !(stance >= -1 && stance <= 1)) return null;
  return { model, stance, rhetoricStyle, personality };
}

/** The draft kept in `storage`, or null when there is none or it is not one (never throws). */
export function readDraft(storage: Pick<Storage, 'getItem'> | undefined): EngineDraft | null {
  try {
    const value: unknown = JSON.parse(storage?.getItem(ENGINE_DRAFT_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { topic, debateFormat, moderatorEnabled, first, second, versus } = value as Record<
      string,
      unknown
    >;
    const speakers = { first: speakerOf(first), second: speakerOf(second) };
    if (!isText(topic, 500) || !isText(debateFormat, 64) || typeof moderatorEnabled !== 'boolean')
      return null;
    if (!speakers.first || !speakers.second) return null;
    return {
      topic,
      debateFormat,
      moderatorEnabled,
      first: speakers.first,
      second: speakers.second,
      versus: versusOf(versus),
    };
  } catch {
    return null;
  }
}

/** Keeps the draft (a full storage or a private window's refusal loses only the draft). */
export function writeDraft(storage: Pick<Storage, 'setItem'> | undefined, draft: EngineDraft) {
  try {
    storage?.setItem(ENGINE_DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Nothing else depends on it.
  }
}

/** The tab's session storage, where there is one. */
export function sessionStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * The run the engine is following, kept in local storage while it goes, so that a reload, a
 * lost connection or a closed tab comes back to it (its events are replayed from its start);
 * what its events do not say (the moderator, the saved debate it is the rematch of) with it.
 */
export interface FollowedRun {
  /** Whose run it is: a browser shared after a sign-out does not show it to the next user. */
  readonly userId: string;
  readonly runId: string;
  readonly moderatorEnabled: boolean;
  readonly rematchOf: string | null;
}

const FOLLOWED_RUN_KEY = 'engineRun';

/**
 * The run of user `userId` kept in `storage`, or null when there is none, it is another user's,
 * or it is not one (never throws).
 */
export function readFollowedRun(
  storage: Pick<Storage, 'getItem'> | undefined,
  userId: string,
): FollowedRun | null {
  try {
    const value: unknown = JSON.parse(storage?.getItem(FOLLOWED_RUN_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { userId: owner, runId, moderatorEnabled, rematchOf } = value as Record<string, unknown>;
    if (owner !== userId) return null;
    if (!isText(runId, 128) || runId === '' || typeof moderatorEnabled !== 'boolean') return null;
    if (rematchOf !== null && !isText(rematchOf, 128)) return null;
    return { userId, runId, moderatorEnabled, rematchOf };
  } catch {
    return null;
  }
}

/** Keeps the run followed (null: none any more). */
export function writeFollowedRun(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  run: FollowedRun | null,
) {
  try {
    if (run) storage?.setItem(FOLLOWED_RUN_KEY, JSON.stringify(run));
    else storage?.removeItem(FOLLOWED_RUN_KEY);
  } catch {
    // A reload then shows the debate once it is over (the unsaved debate), not while it goes.
  }
}
