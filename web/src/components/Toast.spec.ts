import { describe, expect, it } from '@jest/globals';
import { toastTone } from './Toast';

describe(toastTone.name, () => {
  it.each([
    ['Debate saved to your history!', 'success'],
    ['Debate shared successfully! It will appear in Community Rankings.', 'success'],
    ['Failed to save debate. Please try again.', 'failure'],
    ['Failed to share debate. Please try again.', 'failure'],
  ])('shows "%s" as %s', (message, tone) => {
    expect(toastTone(message)).toBe(tone);
  });
});
