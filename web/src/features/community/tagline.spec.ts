import { describe, expect, it } from '@jest/globals';
import { chooseTagline, MAIN_TAGLINE, SHORT_TAGLINE } from './tagline';

describe(chooseTagline.name, () => {
  it.each([0, 0.5, 0.7499])('gives the main tagline for a draw of %s', (draw) => {
    expect(chooseTagline(draw)).toBe(
      'Humans discuss here, inspired and guided by ever scrutinizable AI.',
    );
  });

  it.each([0.75, 0.9, 0.9999])('gives "think for yourself" for a draw of %s', (draw) => {
    expect(chooseTagline(draw)).toBe('think for yourself');
  });

  it('gives the main tagline three times in four over many draws', () => {
    const draws = Array.from({ length: 1000 }, (_, index) => index / 1000);
    const main = draws.filter((draw) => chooseTagline(draw) === MAIN_TAGLINE).length;
    expect(main).toBe(750);
    expect(draws.length - main).toBe(
      draws.filter((d) => chooseTagline(d) === SHORT_TAGLINE).length,
    );
  });
});
