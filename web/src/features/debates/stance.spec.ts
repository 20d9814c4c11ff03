import { describe, expect, it } from '@jest/globals';
import { communityStanceLabel } from './stance';

describe(communityStanceLabel.name, () => {
  it.each([
    [-1, 'Strongly Against'],
    [-0.8, 'Strongly Against'],
    [-0.6, 'Against'],
    [-0.3, 'Against'],
    [0, 'Neutral'],
    [0.2, 'Neutral'],
    [0.3, 'For'],
    [0.6, 'Strongly For'],
  ])('labels %d as %s', (stance, label) => {
    expect(communityStanceLabel(stance)).toBe(label);
  });
});
