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
