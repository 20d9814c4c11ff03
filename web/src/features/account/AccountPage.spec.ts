import { describe, expect, it } from '@jest/globals';
import { tokensUsed } from './AccountPage';

describe(tokensUsed.name, () => {
  it('gives the tokens the models read and wrote for the user’s debates', () => {
    expect(tokensUsed({ tokensIn: 12_480, tokensOut: 3_210 })).toBe('12,480 in / 3,210 out');
    expect(tokensUsed({ tokensIn: 0, tokensOut: 0 })).toBe('0 in / 0 out');
  });
});
