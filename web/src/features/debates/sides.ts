import { speakerNames } from '@debate/contracts/constants';

/** Which side a turn is on, for its colour: the first speaker's, the second's, or neither. */
export type Side = 'first' | 'second' | 'moderator';

export function sideOf(speaker: string): Side {
  if (speaker === speakerNames[0]) return 'first';
  if (speaker === speakerNames[1]) return 'second';
  return 'moderator';
}
