import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { debateToMarkdown } from './markdown';
import { judgeDetails } from './provenance';
import { Scorecard } from './Scorecard';
import { type Verdict, verdictCardLine, verdictHeadline } from './verdict';

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
