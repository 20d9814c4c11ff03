import type { DebateSettingsInput, SpeakerSettingsInput } from '../../gql/graphql';

/**
 * The engine's draft (the topic and the settings), kept in the tab's session storage so that it
 * survives the trip through sign-in (a page of its own, or a provider's redirect) and a reload.
 */
export type EngineDraft = Omit<DebateSettingsInput, 'first' | 'second'> & {
  readonly first: SpeakerSettingsInput;
  readonly second: SpeakerSettingsInput;
};

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
    const { topic, debateFormat, moderatorEnabled, first, second } = value as Record<
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
