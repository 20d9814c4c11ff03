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
