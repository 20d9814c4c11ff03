import { describe, expect, it } from '@jest/globals';
import { mindsChangedLine, readersSoFarText, roomWinnerText, signedPoints } from './minds';

describe(mindsChangedLine.name, () => {
  it('gives the shares before → after, each side’s gain and the winner by gain', () => {
    expect(
      mindsChangedLine({
        readers: 5,
        shares: {
          before: { for: 40, against: 40, undecided: 20 },
          after: { for: 40, against: 60 },
          gain: { for: 0, against: 20 },
          gainedReaders: { for: 0, against: 1 },
          winner: 'AGAINST',
        },
      }),
    ).toBe(
      'Minds changed: For 40% → 40% (0) · Against 40% → 60% (+20) · Against wins the room by gain',
    );
  });

  it('says only how many readers gave both below five', () => {
    expect(mindsChangedLine({ readers: 1, shares: null })).toBe(
      'Minds changed: 1 reader has said where they stood before and after reading; shown from 5.',
    );
    expect(readersSoFarText(4)).toBe(
      '4 readers have said where they stood before and after reading; shown from 5.',
    );
  });

  it('signs a gain and names an even room', () => {
    expect([signedPoints(12.5), signedPoints(-3), signedPoints(0)]).toEqual(['+12.5', '-3', '0']);
    expect(roomWinnerText('TIE')).toBe('The room is split evenly: both sides gained the same');
    expect(roomWinnerText('FOR')).toBe('For wins the room by gain');
  });
});
