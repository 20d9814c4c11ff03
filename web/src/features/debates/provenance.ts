import type { modelKinds } from '@debate/contracts/constants';
import type { DebateSpeakerFieldsFragment, WrittenByFieldsFragment } from '../../gql/graphql';

/**
 * What the app says of who wrote a debate, a speaker's rounds or one turn: the model's label
 * (never the catalogue id), the model the server reported, tokens and timings, as the gateway's
 * `writtenBy` gives them. The offline speaker is named as what it is, never as a model.
 */

/** What wrote a turn or a speaker's turns: the gateway's WrittenBy, as every operation asks it. */
export type WrittenBy = WrittenByFieldsFragment;

/** The kind of the offline speaker, in WrittenBy, SpeakerModel and SpeakerModelRef. */
export const OFFLINE_KIND: (typeof modelKinds)[number] = 'offline';

/** The kind of a person's turns (a debate against a model): named by the person's label. */
export const PERSON_KIND: (typeof modelKinds)[number] = 'person';

/** A person's turns: 'Written by Ada', no timing and no tokens (nothing a model measured). */
function personText(writtenBy: Pick<WrittenBy, 'label'>): string {
  return `Written by ${writtenBy.label}`;
}

/** A duration in seconds, one decimal: '5.2 s'. */
function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A token count with its thousands grouped: '2,436'. */
export function formatTokens(count: number): string {
  return count.toLocaleString('en-US');
}

/** '812 in / 230 out tokens', what of it is known; null when the server said nothing. */
export function tokensText(writtenBy: Pick<WrittenBy, 'tokensIn' | 'tokensOut'>): string | null {
  const parts = [
    writtenBy.tokensIn === null ? null : `${formatTokens(writtenBy.tokensIn)} in`,
    writtenBy.tokensOut === null ? null : `${formatTokens(writtenBy.tokensOut)} out`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : `${parts.join(' / ')} tokens`;
}

/** Who wrote it, inside a sentence: 'the offline speaker', or the model's label. */
function writer(writtenBy: Pick<WrittenBy, 'kind' | 'label'>): string {
  return writtenBy.kind === OFFLINE_KIND ? 'the offline speaker' : writtenBy.label;
}

/** The same at the start of a sentence. */
function writerAtStart(writtenBy: Pick<WrittenBy, 'kind' | 'label'>): string {
  return writtenBy.kind === OFFLINE_KIND ? 'The offline speaker' : writtenBy.label;
}

/** What a turn the model failed says of it: 'GPT-4o failed to write this turn'. */
export function failedTurnText(writtenBy: Pick<WrittenBy, 'kind' | 'label'>): string {
  return `${writerAtStart(writtenBy)} failed to write this turn`;
}

/** Whether every turn it counts was failed. */
function failed(writtenBy: WrittenBy): boolean {
  return writtenBy.failedTurns > 0 && writtenBy.failedTurns >= writtenBy.turns;
}

/**
 * One turn's provenance, in full (the engine): 'Written by GPT-4o (gpt-4o-2024-08-06) · 812 in /
 * 230 out tokens · first words 0.8 s · 5.2 s'; 'Written by the offline speaker · 5.2 s'.
 */
export function turnProvenance(writtenBy: WrittenBy): string {
  if (writtenBy.kind === PERSON_KIND) return personText(writtenBy);
  if (failed(writtenBy)) return failedTurnText(writtenBy);
  const parts = [
    `Written by ${writer(writtenBy)}${writtenBy.serverModel ? ` (${writtenBy.serverModel})` : ''}`,
  ];
  if (writtenBy.kind !== OFFLINE_KIND) {
    const tokens = tokensText(writtenBy);
    if (tokens) parts.push(tokens);
    if (writtenBy.firstTokenMs !== null) {
      parts.push(`first words ${formatSeconds(writtenBy.firstTokenMs)}`);
    }
  }
  parts.push(formatSeconds(writtenBy.totalMs));
  return parts.join(' · ');
}

/** One round's provenance, briefly (a saved debate's rounds): 'Written by GPT-4o · 5.2 s'. */
export function roundProvenance(writtenBy: WrittenBy): string {
  if (writtenBy.kind === PERSON_KIND) return personText(writtenBy);
  if (failed(writtenBy)) return failedTurnText(writtenBy);
  return `Written by ${writer(writtenBy)} · ${formatSeconds(writtenBy.totalMs)}`;
}

/**
 * A speaker's model as a debate shows it: the label of what really wrote its rounds ('Offline
 * speaker', 'GPT-4o'); the catalogue id only for a debate saved before that was kept.
 */
export function speakerModel(speaker: Pick<DebateSpeakerFieldsFragment, 'name' | 'writtenBy'>) {
  return speaker.writtenBy?.label ?? notRecorded(speaker.name);
}

/**
 * A speaker saved before what wrote it was kept: only the model it was given is known, and it
 * may not be what wrote it (the offline speaker wrote for every model without a key).
 */
function notRecorded(name: string): string {
  return `${name} (asked for)`;
}

/**
 * The same with what there is room for (the debate's page, the export): the server's model,
 * the tokens and the failed turns. 'GPT-4o (gpt-4o-2024-08-06) · 2,436 in / 690 out tokens'.
 */
export function speakerModelDetails(
  speaker: Pick<DebateSpeakerFieldsFragment, 'name' | 'writtenBy'>,
  separator = ' · ',
): string {
  const writtenBy = speaker.writtenBy;
  if (!writtenBy) return notRecorded(speaker.name);
  if (writtenBy.kind === PERSON_KIND) return personText(writtenBy);
  const parts = [`${writtenBy.label}${writtenBy.serverModel ? ` (${writtenBy.serverModel})` : ''}`];
  if (writtenBy.kind !== OFFLINE_KIND) {
    const tokens = tokensText(writtenBy);
    if (tokens) parts.push(tokens);
  }
  if (writtenBy.failedTurns > 0) {
    parts.push(
      `${writtenBy.failedTurns} of ${writtenBy.turns} ${writtenBy.turns === 1 ? 'turn' : 'turns'} failed`,
    );
  }
  return parts.join(separator);
}

/**
 * Who judged a debate, with what there is room for (the scorecard, the export): 'Offline judge
 * (fixed rules, no AI model) · 0.1 s'; 'GPT-4o (gpt-4o-2024-08-06) · 3,120 in / 410 out tokens
 * · 9.8 s'. The offline judge is named as what it is, never as a model.
 */
export function judgeDetails(judgedBy: WrittenBy, separator = ' · '): string {
  if (judgedBy.kind === OFFLINE_KIND) {
    return [`${judgedBy.label} (fixed rules, no AI model)`, formatSeconds(judgedBy.totalMs)].join(
      separator,
    );
  }
  const parts = [`${judgedBy.label}${judgedBy.serverModel ? ` (${judgedBy.serverModel})` : ''}`];
  const tokens = tokensText(judgedBy);
  if (tokens) parts.push(tokens);
  parts.push(formatSeconds(judgedBy.totalMs));
  return parts.join(separator);
}
