import type {
  DebateFormat,
  SpeakerSettings,
  TeamNotes,
  TurnSpeaker,
  TurnStage,
} from '@debate/contracts';
import type { Found } from './team/searcher.js';

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
  /**
   * The other side is a person's (a debate against a model): the offline speaker then quotes
   * and answers a sentence of their last turn. Absent: two models.
   */
  readonly opponentIsPerson?: boolean;
  /** A team's writer: the plan, and for a revision the draft and the fixes. */
  readonly guidance?: WriterGuidance;
  /** What a team's searcher found, for its analyzer and writer (numbered from 1). */
  readonly evidence?: readonly Found[];
}

/** What a team's writer is given besides the turn: the analyzer's plan, and for a revision
 * its draft and the reviewer's fixes. */
interface WriterGuidance {
  readonly plan: string;
  readonly revision?: { readonly draft: string; readonly fixes: readonly string[] };
}

/**
 * What a speaker yields: the stages of a team's turn, pieces of the argument as they are
 * written (a revision's from its start again, after its 'revising' stage), then the whole turn
 * with what the server said of itself (the model it reported, the tokens its usage counted over
 * every call; null when it said nothing, and always for the offline speaker) and, for a team,
 * how it was made.
 */
export type SpeakerChunk =
  | { readonly type: 'stage'; readonly stage: TurnStage }
  | { readonly type: 'delta'; readonly text: string }
  | {
      readonly type: 'done';
      readonly text: string;
      readonly summary: string;
      readonly serverModel: string | null;
      readonly tokensIn: number | null;
      readonly tokensOut: number | null;
      readonly team?: TeamNotes;
    };

/** The port every speaker implements: the OpenAI-compatible one and the offline one. */
export interface Speaker {
  /** Writes one turn; throws (or the iterator does) when it cannot. */
  speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk>;
}
