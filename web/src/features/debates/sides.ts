import { speakerNames } from '@debate/contracts/constants';

/** Which side a turn is on: the first speaker's, the second's, or neither (the moderator's). */
export type Side = 'first' | 'second' | 'moderator';

export function sideOf(speaker: string): Side {
  if (speaker === speakerNames[0]) return 'first';
  if (speaker === speakerNames[1]) return 'second';
  return 'moderator';
}

/** A stance's colour band (spec §4): separate from the labels, at -0.6, -0.15, 0.15 and 0.6. */
export type StanceBand = 'strongly-against' | 'against' | 'neutral' | 'for' | 'strongly-for';

export function stanceBand(stance: number): StanceBand {
  if (stance <= -0.6) return 'strongly-against';
  if (stance <= -0.15) return 'against';
  if (stance < 0.15) return 'neutral';
  if (stance < 0.6) return 'for';
  return 'strongly-for';
}

/** Each speaker's stance, the first's and the second's. */
export interface SideStances {
  readonly first: number;
  readonly second: number;
}

/** The stance of a side's speaker; null for the moderator, or while the stances are not known. */
export function stanceOf(side: Side, stances: SideStances | null): number | null {
  return side === 'moderator' || !stances ? null : stances[side];
}

/**
 * A turn's classes: its side, and its speaker's stance band, whose colour the turn takes as the
 * speaker's setup card does (debates.css). The moderator takes no side, and so no stance colour.
 */
export function turnClasses(side: Side, stance: number | null): string {
  return stance === null ? `turn side-${side}` : `turn side-${side} stance-${stanceBand(stance)}`;
}
