import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { debateToMarkdown } from './markdown';
import { judgeDetails } from './provenance';
import { DISAGREE_MARK, Scorecard } from './Scorecard';
import {
  judgesAndReadersDisagree,
  judgesVerdictText,
  readersVerdictText,
  readingsAgreementText,
  type Verdict,
  verdictCardLine,
  verdictHeadline,
} from './verdict';

const criteria = ['argument', 'evidence', 'rebuttal', 'clarity'];

/** The offline judge's scorecard: the first speaker 7 on everything, the second 5.5. */
const verdict: Verdict = {
  winner: 'First Speaker',
  tie: false,
  tieReason: null,
  firstTotal: 56,
  secondTotal: 44,
  scores: (['First Speaker', 'Second Speaker'] as const).flatMap((speaker) =>
    criteria.map((criterion) => ({
      speaker,
      criterion,
      score: speaker === 'First Speaker' ? 7 : 5.5,
      reason: `${speaker}'s ${criterion} | reason.`,
    })),
  ),
  readings: [
    { order: 'as_given', winner: 'First Speaker', firstTotal: 56, secondTotal: 44 },
    { order: 'swapped', winner: 'First Speaker', firstTotal: 56, secondTotal: 44 },
  ],
  judgedBy: {
    kind: 'offline',
    modelId: 'offline',
    label: 'Offline judge',
    serverModel: null,
    tokensIn: null,
    tokensOut: null,
    firstTokenMs: 1,
    totalMs: 2,
    turns: 2,
    failedTurns: 0,
  },
};

describe(verdictHeadline.name, () => {
  it('names the winner with its total first, or the tie and why', () => {
    expect(verdictHeadline(verdict)).toBe('First Speaker wins, 56 to 44');
    expect(
      verdictHeadline({ ...verdict, winner: 'Second Speaker', firstTotal: 40, secondTotal: 52.5 }),
    ).toBe('Second Speaker wins, 52.5 to 40');
    expect(verdictHeadline({ ...verdict, winner: null, tieReason: 'readings_disagree' })).toBe(
      'A tie: the two readings, one with the speakers swapped, disagreed',
    );
    expect(verdictHeadline({ ...verdict, winner: null, tieReason: 'judged_even' })).toBe(
      'A tie: the judge called it even',
    );
  });
});

describe(verdictCardLine.name, () => {
  it('gives a card the winner and the totals in one line, the winner’s first', () => {
    expect(verdictCardLine(verdict)).toBe('Judges: First Speaker 56 – 44');
    expect(
      verdictCardLine({ ...verdict, winner: 'Second Speaker', firstTotal: 40, secondTotal: 52.5 }),
    ).toBe('Judges: Second Speaker 52.5 – 40');
    expect(verdictCardLine({ ...verdict, winner: null, tie: true, secondTotal: 56 })).toBe(
      'Judges: a tie, 56 – 56',
    );
  });
});

describe(judgeDetails.name, () => {
  it('names the offline judge as what it is, and a model with what its server said', () => {
    expect(judgeDetails(verdict.judgedBy)).toBe('Offline judge (fixed rules, no AI model) · 0.0 s');
    expect(
      judgeDetails({
        ...verdict.judgedBy,
        kind: 'model',
        modelId: 'qwen',
        label: 'Qwen 2.5 72B',
        serverModel: 'Qwen/Qwen2.5-72B-Instruct',
        tokensIn: 4_100,
        tokensOut: 620,
        totalMs: 9_800,
      }),
    ).toBe('Qwen 2.5 72B (Qwen/Qwen2.5-72B-Instruct) · 4,100 in / 620 out tokens · 9.8 s');
  });
});

describe(Scorecard.name, () => {
  it('shows the verdict, every criterion with its weight and both scores, the totals and the judge', () => {
    render(<Scorecard verdict={verdict} />);
    const card = screen.getByRole('region', { name: 'The judges’ scorecard' });
    expect(card.textContent).toContain('First Speaker wins, 56 to 44');
    const rows = screen.getAllByRole('row').map((row) => row.textContent);
    expect(rows[1]).toBe(
      "Argument strength (×3)7 First Speaker's argument | reason.5.5 Second Speaker's argument | reason.",
    );
    expect(rows.at(-1)).toBe('Total5644');
    expect(card.textContent).toContain(
      'Read with the speakers swapped: First Speaker wins, 56 to 44',
    );
    expect(card.textContent).toContain('Judge: Offline judge (fixed rules, no AI model)');
  });
});

/** The same verdict with the two readings disagreeing: a tie, as the judge service makes it. */
const split: Verdict = {
  ...verdict,
  winner: null,
  tie: true,
  tieReason: 'readings_disagree',
  readings: [
    { order: 'as_given', winner: 'First Speaker', firstTotal: 50, secondTotal: 46 },
    { order: 'swapped', winner: 'Second Speaker', firstTotal: 46, secondTotal: 50 },
  ],
};

/** First Speaker argues For, Second Against. */
const firstFor = { first: 0.6, second: -0.6 };

describe(readingsAgreementText.name, () => {
  it('says when the two readings agreed, and nothing more when the headline says they did not', () => {
    expect(readingsAgreementText(verdict)).toBe('The two readings, sides swapped, agreed.');
    expect(readingsAgreementText(split)).toBeNull();
    expect(verdictHeadline(split)).toBe(
      'A tie: the two readings, one with the speakers swapped, disagreed',
    );
    expect(readingsAgreementText({ readings: [] })).toBeNull();
  });
});

describe(readersVerdictText.name, () => {
  it('names the side that gained more readers, with how many, or that none did', () => {
    expect(readersVerdictText({ for: 4, against: -1 })).toBe('The readers: For gained 4 minds');
    expect(readersVerdictText({ for: 0, against: 1 })).toBe('The readers: Against gained 1 mind');
    expect(readersVerdictText({ for: 2, against: 2 })).toBe('The readers: no side gained');
  });
});

describe(judgesVerdictText.name, () => {
  it('says the judges’ winner as the side of the motion it argued', () => {
    expect(judgesVerdictText(verdict, firstFor)).toBe('The judges: For won (First Speaker)');
    expect(judgesVerdictText(verdict, { first: -0.6, second: 0.6 })).toBe(
      'The judges: Against won (First Speaker)',
    );
    expect(judgesVerdictText(split, firstFor)).toBe('The judges: a tie');
    expect(judgesVerdictText(verdict, { first: 0, second: 0 })).toBe(
      'The judges: First Speaker won',
    );
  });
});

describe(judgesAndReadersDisagree.name, () => {
  it('compares the side the judges’ winner argued with the side the readers moved toward', () => {
    // First Speaker won and argued For.
    expect(judgesAndReadersDisagree(verdict, firstFor, { for: 3, against: 0 })).toBe(false);
    expect(judgesAndReadersDisagree(verdict, firstFor, { for: 0, against: 3 })).toBe(true);
    // The same winner arguing Against.
    const firstAgainst = { first: -0.6, second: 0.6 };
    expect(judgesAndReadersDisagree(verdict, firstAgainst, { for: 0, against: 3 })).toBe(false);
    // A tie is no side: it agrees only with readers who moved to no side.
    expect(judgesAndReadersDisagree(split, firstFor, { for: 1, against: 1 })).toBe(false);
    expect(judgesAndReadersDisagree(split, firstFor, { for: 2, against: 1 })).toBe(true);
    // Equal stances: the winner argued neither side, and nothing is compared.
    expect(judgesAndReadersDisagree(verdict, { first: 0, second: 0 }, { for: 0, against: 3 })).toBe(
      false,
    );
  });
});

describe(`${Scorecard.name} with its readers`, () => {
  it('shows the readers’ verdict beside the judges’, and marks it in words when they disagree', () => {
    render(
      <Scorecard
        verdict={verdict}
        readers={{ gained: { for: 0, against: 4 }, stances: firstFor }}
      />,
    );
    const card = screen.getByRole('region', { name: 'The judges’ scorecard' });
    expect(card.textContent).toContain('The judges: For won (First Speaker)');
    expect(card.textContent).toContain('The readers: Against gained 4 minds');
    expect(screen.getByText(DISAGREE_MARK)).toBeTruthy();
    expect(card.textContent).toContain('The two readings, sides swapped, agreed.');
  });

  it('shows no mark when they agree, and no readers’ verdict for a debate without one', () => {
    const { unmount } = render(
      <Scorecard
        verdict={verdict}
        readers={{ gained: { for: 1, against: 0 }, stances: firstFor }}
      />,
    );
    expect(screen.getByText('The readers: For gained 1 mind')).toBeTruthy();
    expect(screen.queryByText(DISAGREE_MARK)).toBeNull();
    unmount();
    render(<Scorecard verdict={split} />);
    const card = screen.getByRole('region', { name: 'The judges’ scorecard' });
    expect(card.textContent).not.toContain('The readers');
    expect(card.textContent).not.toContain('The judges:');
    // The headline says the readings disagreed, once.
    expect(card.textContent?.match(/disagreed/g)).toHaveLength(1);
  });
});

describe('the export of a judged debate', () => {
  it("ends with the judges' scorecard, its table cells escaped", () => {
    const markdown = debateToMarkdown({
      topic: 'Should cities ban cars?',
      categories: ['Society'],
      sharedAt: null,
      model1: { name: 'offline', stance: 0.6, rhetoricStyle: 'formal', writtenBy: null },
      model2: { name: 'offline', stance: -0.6, rhetoricStyle: 'casual', writtenBy: null },
      rounds: [],
      verdict,
    });
    expect(markdown).toContain("## Judges' scorecard\n\n**First Speaker wins, 56 to 44**");
    expect(markdown).toContain(
      "| Argument strength (×3) | 7: First Speaker's argument \\| reason. | 5.5: Second Speaker's argument \\| reason. |",
    );
    expect(markdown).toContain('| **Total** (at most 80) | **56** | **44** |');
    expect(markdown).toContain('- Read as given: First Speaker wins, 56 to 44\n');
    expect(markdown).toMatch(/\nJudged by Offline judge \(fixed rules, no AI model\), 0\.0 s\n$/);
    expect(
      debateToMarkdown({
        topic: 'Not judged',
        categories: ['Society'],
        sharedAt: null,
        model1: { name: 'offline', stance: 0.6, rhetoricStyle: 'formal', writtenBy: null },
        model2: { name: 'offline', stance: -0.6, rhetoricStyle: 'casual', writtenBy: null },
        rounds: [],
        verdict: null,
      }),
    ).not.toContain('scorecard');
  });
});
