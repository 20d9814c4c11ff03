import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { AppRoutes } from '../../app/App';
import { renderWithProviders } from '../../test/render';
import { initialAuthState } from '../auth/auth.slice';
import { figureCell, FIGURE_COLUMNS } from './figures';
import type { JudgeFigure, JudgeRecord, JudgesReport } from './judges.api';
import { EMPTY_JUDGES, JUDGES_CAPTION, JUDGES_LOAD_FAILURE, JudgesTab } from './JudgesTab';

const signedOut = { auth: { ...initialAuthState(), status: 'signedOut' as const } };

const figure = (
  value: number | null,
  low: number | null,
  high: number | null,
  count: number,
): JudgeFigure => ({ value, low, high, count });
const none = (count = 0) => figure(null, null, null, count);

/** A model judge on 120 debates, with every figure. */
const qwen: JudgeRecord = {
  judgeId: 'qwen',
  label: 'Qwen 2.5 72B',
  kind: 'model',
  debates: 120,
  positionConsistency: figure(0.8166, 0.74, 0.876, 120),
  firstShownMargin: figure(1.83, 0.94, 2.71, 120),
  pairwiseAgreement: figure(0.7, 0.61, 0.78, 200),
  fleissKappa: figure(0.4149, 0.2, 0.6, 100),
  selfPreference: figure(-0.5, -2.1, 1.04, 12),
  lengthSlope: figure(0.4213, 0.1, 0.7, 96),
  readersMinds: { agreement: figure(0.6, 0.3, 0.85, 5), kappa: figure(-0.04, -0.5, 0.41, 5) },
  readersVotes: { agreement: figure(0.5, 0.2, 0.8, 8), kappa: figure(0.1, -0.3, 0.5, 8) },
};

/** The offline judge on 3 debates, read by no other judge, with no readers. */
const offline: JudgeRecord = {
  judgeId: 'offline',
  label: 'Offline judge',
  kind: 'offline',
  debates: 3,
  positionConsistency: figure(1, 0.44, 1, 3),
  firstShownMargin: figure(0, 0, 0, 3),
  pairwiseAgreement: none(),
  fleissKappa: none(),
  selfPreference: none(),
  lengthSlope: none(3),
  readersMinds: { agreement: none(), kappa: none() },
  readersVotes: { agreement: none(), kappa: none() },
};

const all: JudgeRecord = {
  ...qwen,
  judgeId: null,
  label: 'All judges',
  kind: null,
  debates: 123,
  positionConsistency: figure(0.5, 0.4, 0.6, 123),
  // κ with observations but undefined: every judge gave the same answer.
  fleissKappa: none(100),
};

const report: JudgesReport = {
  judges: [qwen, offline],
  all,
  debates: 123,
  bootstrapRounds: 500,
  computedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
};

const empty: JudgesReport = {
  judges: [],
  all: { ...offline, judgeId: null, label: 'All judges', kind: null, debates: 0 },
  debates: 0,
  bootstrapRounds: 500,
  computedAt: null,
};

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The gateway: `answer` for the judges query (null: an error), counting the times it is asked. */
function fakeGateway(answer: () => JudgesReport | null) {
  const asked = { count: 0 };
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const request = JSON.parse(String(init?.body)) as { query: string };
    const reply = (body: object) => ({ ok: true, status: 200, json: async () => body });
    if (!request.query.includes('query Judges')) return new Promise<never>(() => undefined);
    asked.count += 1;
    const judges = answer();
    return judges
      ? reply({ data: { judges } })
      : reply({ errors: [{ message: 'The community service is not available' }] });
  }) as unknown as typeof fetch;
  return asked;
}

/** The table's body rows, each as its cells' texts. */
function cells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

describe(JudgesTab.name, () => {
  it('is the hub’s fourth tab, at /community/judges', async () => {
    fakeGateway(() => report);
    renderWithProviders(<AppRoutes />, { preloadedState: signedOut, route: '/community/judges' });
    const tabs = screen.getByRole('navigation', { name: 'Community sections' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Community Forum', 'Account Activity', 'Leaderboard', 'Judges']);
    expect(within(tabs).getByRole('link', { name: 'Judges' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Judges' })).toBeTruthy();
  });

  it('shows a row per judge and all judges: every figure with its interval and count, or why not', async () => {
    fakeGateway(() => report);
    renderWithProviders(<JudgesTab />, { preloadedState: signedOut });
    const table = await screen.findByRole('table', { name: JUDGES_CAPTION });
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((heading) => heading.textContent);
    expect(headings).toEqual([
      'Judge',
      'Debates',
      'Position consistency',
      'First-read advantage',
      'Agreement between judges',
      'Fleiss’ κ',
      'Self-preference',
      'Length bias',
      'Readers: minds changed',
      'Minds changed: Cohen’s κ',
      'Readers: votes',
      'Votes: Cohen’s κ',
    ]);
    expect(cells(table)).toEqual([
      [
        'Qwen 2.5 72B',
        '120',
        '82% [74%, 88%] · 120 debates',
        '+1.8 pts [0.9, 2.7] · 120 debates',
        '70% [61%, 78%] · 200 pairs of judges',
        '0.41 [0.20, 0.60] · 100 debates',
        '-0.5 pts [-2.1, 1.0] · 12 debates',
        '+0.42 per 100 words [0.10, 0.70] · 96 decisive verdicts',
        '60% [30%, 85%] · 5 debates',
        '-0.04 [-0.50, 0.41] · 5 debates',
        '50% [20%, 80%] · 8 debates',
        '0.10 [-0.30, 0.50] · 8 debates',
      ],
      [
        'Offline judge fixed rules',
        '3',
        '100% [44%, 100%] · 3 debates',
        '0.0 pts [0.0, 0.0] · 3 debates',
        '— no debate read by several judges · 0 pairs of judges',
        '— no debate read by several judges · 0 debates',
        '— no debate its model spoke in · 0 debates',
        '— fewer than 10 decisive verdicts · 3 decisive verdicts',
        '— no readers yet · 0 debates',
        '— no readers yet · 0 debates',
        '— no readers yet · 0 debates',
        '— no readers yet · 0 debates',
      ],
      [
        'All judges',
        '123',
        '50% [40%, 60%] · 123 verdicts',
        '+1.8 pts [0.9, 2.7] · 120 verdicts',
        '70% [61%, 78%] · 200 pairs of judges',
        '— κ undefined: every answer was the same · 100 debates',
        '-0.5 pts [-2.1, 1.0] · 12 verdicts',
        '+0.42 per 100 words [0.10, 0.70] · 96 decisive verdicts',
        '60% [30%, 85%] · 5 verdicts',
        '-0.04 [-0.50, 0.41] · 5 verdicts',
        '50% [20%, 80%] · 8 verdicts',
        '0.10 [-0.30, 0.50] · 8 verdicts',
      ],
    ]);
    // The row headers name the judges, for a screen reader crossing the table.
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Qwen 2.5 72B', 'Offline judge fixed rules', 'All judges']);
    expect(screen.getByText(/Recomputed/).textContent).toBe(
      'Recomputed 5 minutes ago from 123 judged debates. Intervals of κ and of the margins from 500 bootstrap rounds.',
    );
    // Every figure is explained under the table.
    const legend = screen.getByRole('region', { name: 'What the figures mean' });
    expect(
      within(legend)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(headings.slice(2));
    expect(
      within(legend)
        .getAllByRole('definition')
        .map((definition) => definition.textContent),
    ).toEqual(FIGURE_COLUMNS.map((column) => column.meaning));
  });

  it('says why there is nothing yet before the first judged debate', async () => {
    fakeGateway(() => empty);
    renderWithProviders(<JudgesTab />, { preloadedState: signedOut });
    expect(await screen.findByText(EMPTY_JUDGES)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says when the record could not be loaded, and tries again on Retry', async () => {
    let answer: JudgesReport | null = null;
    const asked = fakeGateway(() => answer);
    renderWithProviders(<JudgesTab />, { preloadedState: signedOut });
    expect((await screen.findByRole('alert')).textContent).toBe(JUDGES_LOAD_FAILURE);
    answer = report;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: JUDGES_CAPTION })).toBeTruthy();
    expect(asked.count).toBe(2);
  });
});

describe(figureCell.name, () => {
  const slope = FIGURE_COLUMNS.find((column) => column.key === 'lengthSlope');
  const self = FIGURE_COLUMNS.find((column) => column.key === 'selfPreference');

  it('tells too few verdicts from a fit that failed, and names any judge’s model for all judges', () => {
    if (!slope || !self) throw new Error('a figure is missing');
    expect(figureCell(slope, { ...qwen, lengthSlope: none(12) }).missing).toBe(
      'no fit: the lengths never vary, or they alone decide every verdict',
    );
    expect(figureCell(slope, { ...qwen, lengthSlope: none(9) }).missing).toBe(
      'fewer than 10 decisive verdicts',
    );
    expect(figureCell(self, { ...all, selfPreference: none() }).missing).toBe(
      'no debate a judge’s model spoke in',
    );
  });

  it('says so when a value has no interval', () => {
    if (!slope) throw new Error('a figure is missing');
    expect(figureCell(slope, { ...qwen, lengthSlope: figure(0.2, null, null, 40) })).toEqual({
      value: '+0.20 per 100 words',
      interval: null,
      count: '40 decisive verdicts',
      missing: null,
    });
  });
});
