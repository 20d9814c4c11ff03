/** The generator's stance labels (spec §4 'Stance labels'). */
export function stanceLabel(stance: number): string {
  if (stance <= -0.8) return 'Strongly Against';
  if (stance <= -0.3) return 'Against';
  if (stance <= 0.3) return 'Neutral';
  if (stance <= 0.8) return 'For';
  return 'Strongly For';
}

/** The colour band of a stance: separate from the labels, at -0.6, -0.15, 0.15 and 0.6. */
export function stanceBand(
  stance: number,
): 'strongly-against' | 'against' | 'neutral' | 'for' | 'strongly-for' {
  if (stance <= -0.6) return 'strongly-against';
  if (stance <= -0.15) return 'against';
  if (stance < 0.15) return 'neutral';
  if (stance < 0.6) return 'for';
  return 'strongly-for';
}

/** +0.6 for one speaker and -0.6 for the other, at random (spec §4 Generation). */
export function initialStances(random: number): [number, number] {
  return random < 0.5 ? [0.6, -0.6] : [-0.6, 0.6];
}
