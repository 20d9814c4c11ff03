import type { DebateFormat, SpeakerSettings, TurnSpeaker } from '@debate/contracts';

/** A turn already spoken, as later turns see it. */
export interface SpokenTurn {
  readonly speaker: TurnSpeaker;
  readonly round: number;
  readonly roundTitle: string;
  readonly text: string;
  readonly summary: string;
}

/** Everything a speaker needs to write one turn. */
export interface TurnRequest {
  readonly topic: string;
  readonly debateFormat: DebateFormat;
  readonly moderatorEnabled: boolean;
  readonly speaker: TurnSpeaker;
  /** The speaker's settings; for the moderator, neutral ones. */
  readonly settings: SpeakerSettings;
  /** 1 to 3; the moderator opens at 0 and closes at 4. */
  readonly round: number;
  readonly roundTitle: string;
  /** Every earlier turn of the debate, in order. */
  readonly earlier: readonly SpokenTurn[];
}

/**
 * What a speaker yields: pieces of the argument as they are written, then the whole turn with
 * what the server said of itself (the model it reported, the tokens its usage counted; null
 * when it said nothing, and always for the offline speaker).
 */
export type SpeakerChunk =
  | { readonly type: 'delta'; readonly text: string }
  | {
      readonly type: 'done';
      readonly text: string;
      readonly summary: string;
      readonly serverModel: string | null;
      readonly tokensIn: number | null;
      readonly tokensOut: number | null;
    };

/** The port every speaker implements: the OpenAI-compatible one and the offline one. */
export interface Speaker {
  /** Writes one turn; throws (or the iterator does) when it cannot. */
  speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk>;
}
