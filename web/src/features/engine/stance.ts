import { MIN_OPPOSING_STANCE } from '@debate/contracts/constants';

/** The generator's stance labels (spec §4 'Stance labels'). */
export function stanceLabel(stance: number): string {
  if (stance <= -0.8) return 'Strongly Against';
  if (stance <= -0.3) return 'Against';
  if (stance <= 0.3) return 'Neutral';
  if (stance <= 0.8) return 'For';
  return 'Strongly For';
}

/** +0.6 for one speaker and -0.6 for the other, at random (spec §4 Generation). */
export function initialStances(random: number): [number, number] {
  return random < 0.5 ? [0.6, -0.6] : [-0.6, 0.6];
}

/** The stances a speaker's slider offers, from `min` to `max`. */
export interface StanceRange {
  readonly min: number;
  readonly max: number;
}

export const ANY_STANCE: StanceRange = { min: -1, max: 1 };

/** Against a person For (`personFor`) or Against, the model's stances: the other side only. */
export function opposingRange(personFor: boolean): StanceRange {
  return personFor ? { min: -1, max: -MIN_OPPOSING_STANCE } : { min: MIN_OPPOSING_STANCE, max: 1 };
}

/**
 * A model's `stance` against a person For (`personFor`) or Against: as strong, on the other
 * side, and never closer to neutral than the gateway allows (a neutral model is not a debate).
 */
export function opposingStance(stance: number, personFor: boolean): number {
  const range = opposingRange(personFor);
  return Math.min(range.max, Math.max(range.min, (personFor ? -1 : 1) * Math.abs(stance)));
}
