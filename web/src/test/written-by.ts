import type { WrittenBy } from '../features/debates/provenance';

// What wrote a debate's parts, as the tests' debates carry it: the offline speaker.

/** One turn of the offline speaker, as a round carries it. */
export const offlineTurn: WrittenBy = {
  kind: 'offline',
  modelId: 'offline',
  label: 'Offline speaker',
  serverModel: null,
  tokensIn: null,
  tokensOut: null,
  firstTokenMs: 100,
  totalMs: 5_160,
  turns: 1,
  failedTurns: 0,
};

/** A whole debate's speaker: its three turns. */
export const offlineSpeaker: WrittenBy = { ...offlineTurn, totalMs: 15_480, turns: 3 };

/** One turn a person wrote (a debate against a model): named by their display name. */
export const personTurn: WrittenBy = {
  kind: 'person',
  modelId: 'person',
  label: 'Ada Lovelace',
  serverModel: null,
  tokensIn: null,
  tokensOut: null,
  firstTokenMs: null,
  totalMs: 95_000,
  turns: 1,
  failedTurns: 0,
};

/** A person's whole side: their three turns. */
export const personSpeaker: WrittenBy = { ...personTurn, totalMs: 300_000, turns: 3 };
