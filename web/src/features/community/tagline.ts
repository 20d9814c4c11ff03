export const HISTORY_TAGLINE = 'Your debate generations are accessible only to you.';
export const MAIN_TAGLINE = 'Humans discuss here, inspired and guided by ever scrutinizable AI.';
export const SHORT_TAGLINE = 'think for yourself';

/** The hub's tagline outside the history tab: the main one 75% of the time (spec §2). */
export function chooseTagline(random: number): string {
  return random < 0.75 ? MAIN_TAGLINE : SHORT_TAGLINE;
}
