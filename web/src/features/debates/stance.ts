/** The community and history stance labels (spec §4, the second table). */
export function communityStanceLabel(stance: number): string {
  if (stance <= -0.8) return 'Strongly Against';
  if (stance <= -0.3) return 'Against';
  if (stance <= 0.2) return 'Neutral';
  if (stance <= 0.3) return 'For';
  return 'Strongly For';
}
