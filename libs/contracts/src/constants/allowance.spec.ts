import { describe, expect, it } from '@jest/globals';
import { generationTexts } from '../generation.contract.js';
import { allowanceTexts, FREE_DEBATE_REFILL_DAYS, FREE_DEBATE_REFILL_MS } from './index.js';

// The spec's texts word for word (§2 Account, §8 'No free debates left'), with the refill's
// numbers read from its one definition.
describe('the free allowance’s refill', () => {
  it('is 6 days, in milliseconds too', () => {
    expect(FREE_DEBATE_REFILL_DAYS).toBe(6);
    expect(FREE_DEBATE_REFILL_MS).toBe(6 * 24 * 60 * 60 * 1000);
  });

  it('is said as the spec says it: 6 days on the account page, within 7 in the refusal', () => {
    expect(allowanceTexts.refillNote).toBe('(Refreshes after 6 days of inactivity)');
    expect(allowanceTexts.refillTooltip).toBe('After a week without debates you get 1 for free!');
    expect(generationTexts.noFreeDebates).toBe(
      'No free debates left. Next free debate within 7 days or consider supporting us by purchasing a PRO account',
    );
  });
});
