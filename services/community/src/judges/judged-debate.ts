import type { modelKinds, RoomWinner, speakerNames, VerdictReading } from '@debate/contracts';

type ModelKind = (typeof modelKinds)[number];

type Debater = (typeof speakerNames)[number];

/** One judge's verdict on a debate, as the judges' record reads it. */
export interface JudgeVerdict {
  /** The judge's catalogue id (or the offline judge's), its label and kind. */
  readonly judgeId: string;
  readonly label: string;
  readonly kind: ModelKind;
  /** Its winner; null: a tie (the readings disagreed, or both called it even). */
  readonly winner: Debater | null;
  /** Its two readings: as given (First Speaker read first), then swapped. */
  readonly readings: readonly [VerdictReading, VerdictReading];
}

/** A judged public debate, as the judges' record reads it. */
export interface JudgedDebate {
  readonly id: string;
  /** The catalogue ids of the models that wrote each side; null: a person's side, or unknown. */
  readonly firstModelId: string | null;
  readonly secondModelId: string | null;
  /** Which speaker argued For (the higher stance); null: the stances were equal. */
  readonly forSide: Debater | null;
  /** The words each side spoke over its rounds. */
  readonly words: { readonly first: number; readonly second: number };
  /** The scorecard's judge's verdict first, then the panel's, one per judge. */
  readonly verdicts: readonly JudgeVerdict[];
  /** The side the readers moved toward (minds changed, by gain); null: too few readers. */
  readonly readersMinds: RoomWinner | null;
  /** The side the For/Against votes favour; null: no For or Against vote. */
  readonly readersVotes: RoomWinner | null;
}
