/** A speaker as a saved or shared debate records it. */
export interface DebateSpeaker {
  readonly name: string;
  readonly stance: number;
  readonly rhetoricStyle: string;
}

export interface DebateRound {
  readonly speaker: string;
  readonly round: number;
  readonly text: string;
  readonly summary: string;
}

/** What every saved or shared debate has, whoever reads it. */
export interface DebateBase {
  readonly id: string;
  readonly topic: string;
  readonly categories: readonly string[];
  readonly userDisplayName: string;
  readonly model1: DebateSpeaker;
  readonly model2: DebateSpeaker;
}

export interface DebateWithRounds extends DebateBase {
  readonly rounds: readonly DebateRound[];
  readonly sharedAt: string | null;
  readonly upvotes: number;
  readonly downvotes: number;
}

export const SPEAKER_FIELDS = 'name stance rhetoricStyle';
export const ROUND_FIELDS = 'speaker round text summary';
