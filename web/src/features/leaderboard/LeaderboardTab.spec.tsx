import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import type { LeaderboardQuery, LeaderboardQueryVariables } from '../../gql/graphql';
import { renderWithProviders } from '../../test/render';
import { initialAuthState } from '../auth/auth.slice';
import { AppRoutes } from '../../app/App';
import {
  APART_HEADING,
  CONTROL_LABEL,
  CONTROLLED_NOTE,
  EMPTY_BOARD,
  EMPTY_PAIRS,
  LeaderboardTab,
  LOAD_FAILURE,
  PEOPLE_NOTE,
  PERSON_TAG,
} from './LeaderboardTab';

type Board = LeaderboardQuery['leaderboard'];
type Row = Board['rows'][number];

const signedOut = { auth: { ...initialAuthState(), status: 'signedOut' as const } };

const row = (id: string, label: string, rating: number, fields: Partial<Row> = {}): Row => ({
  id,
  label,
  rating,
  low: rating - 60.4,
  high: rating + 59.6,
  debates: 10,
  pairs: 2,
  audience: null,
  kind: null,
  ...fields,
});

const empty: Board = {
  subject: 'MODEL',
  pairsOnly: false,
  controlled: false,
  debates: 0,
  apartDebates: 0,
  bootstrapRounds: 500,
  computedAt: null,
  notRated: { sameSubject: 0, notRecorded: 0, personalityHints: 0, dailyLimit: 0 },
  rows: [],
  apart: [],
};

const models: Board = {
  ...empty,
  debates: 14,
  apartDebates: 3,
  computedAt: '2025-06-01T12:00:00.000Z',
  notRated: { sameSubject: 2, notRecorded: 0, personalityHints: 1, dailyLimit: 3 },
  rows: [
    row('gpt-4o', 'GPT-4o', 1120.4, {
      audience: { rating: 1049.6, low: 980, high: 1110, debates: 3 },
    }),
    row('llama', 'Llama 3.1', 879.6, { debates: 8, pairs: 0 }),
  ],
  apart: [
    row('offline', 'Offline speaker', 1010, { debates: 3, pairs: 0 }),
    row('gpt-4o', 'GPT-4o', 990, { debates: 3, pairs: 0 }),
  ],
};

const styles: Board = {
  ...empty,
  subject: 'STYLE',
  debates: 4,
  computedAt: '2025-06-01T12:00:00.000Z',
  rows: [row('formal', 'Formal', 1030), row('casual', 'Casual', 970)],
};

/** Two listed people among the models; everyone's side pooled; one person against the offline speaker. */
const people: Board = {
  ...empty,
  subject: 'PEOPLE',
  debates: 6,
  apartDebates: 1,
  computedAt: '2025-06-01T12:00:00.000Z',
  rows: [
    row('person:0a1b2c3d4e5f', 'Ada Lovelace', 1090, { kind: 'PERSON', debates: 3, pairs: 0 }),
    row('gpt-4o', 'GPT-4o', 1040, { debates: 7, pairs: 0 }),
    row('people', 'People', 980, { kind: 'PEOPLE', debates: 6, pairs: 0 }),
  ],
  apart: [
    row('offline', 'Offline speaker', 1010, { debates: 1, pairs: 0 }),
    row('people', 'People', 990, { kind: 'PEOPLE', debates: 1, pairs: 0 }),
  ],
};

/** The address's query, as the router holds it. */
function Address() {
  return <output aria-label="address">{useLocation().search}</output>;
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The gateway: `answer` for each leaderboard query, whose variables are recorded. */
function fakeGateway(
  answer: (variables: LeaderboardQueryVariables) => Board | null | Promise<Board | null>,
) {
  const asked: LeaderboardQueryVariables[] = [];
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const request = JSON.parse(String(init?.body)) as {
      query: string;
      variables: LeaderboardQueryVariables;
    };
    const reply = (body: object) => ({ ok: true, status: 200, json: async () => body });
    if (!request.query.includes('query Leaderboard')) return new Promise<never>(() => undefined);
    asked.push(request.variables);
    const board = await answer(request.variables);
    return board
      ? reply({ data: { leaderboard: board } })
      : reply({ errors: [{ message: 'The community service is not available' }] });
  }) as unknown as typeof fetch;
  return asked;
}

/** A table's body rows, each as its cells' texts. */
function cells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((tableRow) =>
      [...tableRow.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
    );
}

describe(LeaderboardTab.name, () => {
  it('is the hub’s third tab, at /community/leaderboard', async () => {
    fakeGateway(() => models);
    renderWithProviders(<AppRoutes />, {
      preloadedState: signedOut,
      route: '/community/leaderboard',
    });
    const tabs = screen.getByRole('navigation', { name: 'Community sections' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Community Forum', 'Account Activity', 'Leaderboard', 'Judges']);
    expect(
      within(tabs).getByRole('link', { name: 'Leaderboard' }).getAttribute('aria-current'),
    ).toBe('page');
    expect(await screen.findByRole('heading', { level: 2, name: 'Leaderboard' })).toBeTruthy();
  });

  it('shows the models’ board: rank, name, rating, interval, debates, pairs, audience; and the offline speaker’s apart', async () => {
    const asked = fakeGateway(() => models);
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    const table = await screen.findByRole('table', { name: 'Models: 14 judged debates' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Rank', 'Model', 'Rating', '95% interval', 'Debates', 'Pairs', 'Audience']);
    expect(cells(table)).toEqual([
      ['1', 'GPT-4o', '1120', '1060 – 1180', '10', '2', '1050'],
      ['2', 'Llama 3.1', '880', '819 – 939', '8', '0', '—'],
    ]);
    const apart = screen.getByRole('region', { name: APART_HEADING });
    expect(
      cells(
        within(apart).getByRole('table', { name: 'Models, offline speaker: 3 judged debates' }),
      ),
    ).toEqual([
      ['1', 'Offline speaker', '1010', '950 – 1070', '3', '0', '—'],
      ['2', 'GPT-4o', '990', '930 – 1050', '3', '0', '—'],
    ]);
    expect(
      screen.getByText(/Not rated: 2 debates with the same model on both sides\./),
    ).toBeTruthy();
    expect(screen.getByText(/Not rated: 1 debate with personality hints\./)).toBeTruthy();
    expect(
      screen.getByText(/Not rated: 3 debates over the daily limit for their pairing\./),
    ).toBeTruthy();
    // Each board is asked once, to find the first that rates anything: the models'.
    expect(asked).toEqual([
      { subject: 'MODEL', pairsOnly: false, controlled: false },
      { subject: 'SETUP', pairsOnly: false, controlled: false },
      { subject: 'STYLE', pairsOnly: false, controlled: false },
      { subject: 'PEOPLE', pairsOnly: false, controlled: false },
    ]);
    expect(screen.getByRole('button', { name: 'Models' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('says what the board shows in one plain sentence, the method after it', async () => {
    fakeGateway(() => models);
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    await screen.findByRole('table', { name: 'Models: 14 judged debates' });
    const intro = screen.getByText(/^Which models, setups and rhetoric styles win the debates/);
    expect(intro.textContent).not.toMatch(/Bradley-Terry/);
    const method = screen.getByText(/^Bradley-Terry over the judges’ verdicts/);
    expect(intro.compareDocumentPosition(method) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(method.closest('details')?.querySelector('summary')?.textContent).toBe(
      'How the ratings are computed',
    );
  });

  it('opens on the first board that rates anything: the styles when only they have ratings', async () => {
    const asked = fakeGateway(({ subject }) =>
      subject === 'STYLE'
        ? styles
        : { ...empty, subject, notRated: { ...empty.notRated, sameSubject: 2 } },
    );
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    const table = await screen.findByRole('table', { name: 'Rhetoric styles: 4 judged debates' });
    expect(cells(table).map((cellsOfRow) => cellsOfRow[1])).toEqual(['Formal', 'Casual']);
    expect(
      screen.getByRole('button', { name: 'Rhetoric styles' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.queryByText(EMPTY_BOARD)).toBeNull();
    expect(asked).toHaveLength(4);
  });

  it('opens on the earlier board that rates anything, whichever answers first', async () => {
    fakeGateway(async ({ subject }) => {
      if (subject === 'MODEL') return empty;
      if (subject === 'SETUP') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { ...models, subject, apartDebates: 0, apart: [] };
      }
      return styles;
    });
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    await screen.findByRole('table', { name: 'Single or team: 14 judged debates' });
    expect(
      screen.getByRole('button', { name: 'Single or team' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('keeps the board the user chose, even when another answers with ratings after', async () => {
    let stylesArrive: () => void = () => undefined;
    const stylesAsked = new Promise<void>((resolve) => {
      stylesArrive = resolve;
    });
    fakeGateway(async ({ subject }) => {
      if (subject !== 'STYLE') return { ...empty, subject };
      await stylesAsked;
      return styles;
    });
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    fireEvent.click(screen.getByRole('button', { name: 'Models' }));
    expect(await screen.findByText(EMPTY_BOARD)).toBeTruthy();
    stylesArrive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText(EMPTY_BOARD)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Models' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('opens on the board a link names, asking for no other', async () => {
    const asked = fakeGateway(({ subject }) => (subject === 'STYLE' ? styles : models));
    renderWithProviders(<LeaderboardTab />, {
      preloadedState: signedOut,
      route: '/community/leaderboard?board=styles',
    });
    expect(
      await screen.findByRole('table', { name: 'Rhetoric styles: 4 judged debates' }),
    ).toBeTruthy();
    expect(asked).toEqual([{ subject: 'STYLE', pairsOnly: false, controlled: false }]);
  });

  it('switches to the rhetoric styles, and to completed side-swapped pairs only', async () => {
    let stylesArrive: () => void = () => undefined;
    const stylesAsked = new Promise<void>((resolve) => {
      stylesArrive = resolve;
    });
    const asked = fakeGateway(async ({ subject, pairsOnly }) => {
      if (pairsOnly) return { ...empty, subject, pairsOnly };
      if (subject === 'MODEL') return models;
      if (subject === 'SETUP') return { ...empty, subject };
      await stylesAsked;
      return styles;
    });
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    await screen.findByRole('table', { name: 'Models: 14 judged debates' });

    const styleButton = screen.getByRole('button', { name: 'Rhetoric styles' });
    fireEvent.click(styleButton);
    expect(styleButton.getAttribute('aria-pressed')).toBe('true');
    // Until the styles' board arrives the models' stays, named as the models'.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('table', { name: 'Models: 14 judged debates' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: /^Rhetoric styles/ })).toBeNull();
    stylesArrive();
    const table = await screen.findByRole('table', { name: 'Rhetoric styles: 4 judged debates' });
    expect(within(table).getAllByRole('columnheader')[1]?.textContent).toBe('Style');
    expect(cells(table).map((cellsOfRow) => cellsOfRow[1])).toEqual(['Formal', 'Casual']);
    expect(screen.queryByRole('region', { name: APART_HEADING })).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Only side-swapped pairs' }));
    expect(await screen.findByText(EMPTY_PAIRS)).toBeTruthy();
    // The styles' board was asked once, when the tab looked for the first board with ratings.
    expect(asked).toEqual([
      { subject: 'MODEL', pairsOnly: false, controlled: false },
      { subject: 'SETUP', pairsOnly: false, controlled: false },
      { subject: 'STYLE', pairsOnly: false, controlled: false },
      { subject: 'PEOPLE', pairsOnly: false, controlled: false },
      { subject: 'STYLE', pairsOnly: true, controlled: false },
    ]);
  });

  it('opens on the People board a link names: each listed person tagged, the people pooled set apart and explained, no pairs toggle', async () => {
    const asked = fakeGateway(({ subject }) => (subject === 'PEOPLE' ? people : models));
    renderWithProviders(<LeaderboardTab />, {
      preloadedState: signedOut,
      route: '/community/leaderboard?board=people',
    });
    const table = await screen.findByRole('table', { name: 'People vs models: 6 judged debates' });
    expect(asked).toEqual([{ subject: 'PEOPLE', pairsOnly: false, controlled: false }]);
    expect(
      screen.getByRole('button', { name: 'People vs models' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(within(table).getAllByRole('columnheader')[1]?.textContent).toBe('Debater');
    expect(cells(table)).toEqual([
      ['1', `Ada Lovelace ${PERSON_TAG}`, '1090', '1030 – 1150', '3', '0', '—'],
      ['2', 'GPT-4o', '1040', '980 – 1100', '7', '0', '—'],
      ['3', 'People', '980', '920 – 1040', '6', '0', '—'],
    ]);
    const [person, model, pooled] = within(table).getAllByRole('rowheader');
    expect(within(person as HTMLElement).getByText(PERSON_TAG).className).toBe('row-tag');
    expect(within(model as HTMLElement).queryByText(PERSON_TAG)).toBeNull();
    expect(within(pooled as HTMLElement).queryByText(PERSON_TAG)).toBeNull();
    expect(pooled?.closest('tr')?.className).toBe('people-row');
    expect(person?.closest('tr')?.className).toBe('');
    expect(screen.getByText(PEOPLE_NOTE)).toBeTruthy();
    // A person against the offline speaker is rated apart, as on every board.
    const apart = screen.getByRole('region', { name: APART_HEADING });
    expect(
      cells(
        within(apart).getByRole('table', {
          name: 'People vs models, offline speaker: 1 judged debate',
        }),
      ).map((cellsOfRow) => cellsOfRow[1]),
    ).toEqual(['Offline speaker', 'People']);
    // A person's debate has no rematch: no pairs to ask for.
    expect(screen.queryByRole('checkbox', { name: 'Only side-swapped pairs' })).toBeNull();
  });

  it('opens on the People board when only people’s debates are rated', async () => {
    fakeGateway(({ subject }) => (subject === 'PEOPLE' ? people : { ...empty, subject }));
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    expect(
      await screen.findByRole('table', { name: 'People vs models: 6 judged debates' }),
    ).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'People vs models' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('asks the People board for all its debates even with pairs only chosen, and the toggle comes back on the models', async () => {
    const asked = fakeGateway(({ subject, pairsOnly }) =>
      subject === 'PEOPLE' ? people : pairsOnly ? { ...empty, subject, pairsOnly } : models,
    );
    renderWithProviders(<LeaderboardTab />, {
      preloadedState: signedOut,
      route: '/community/leaderboard?board=models',
    });
    await screen.findByRole('table', { name: 'Models: 14 judged debates' });
    expect(screen.queryByText(PEOPLE_NOTE)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only side-swapped pairs' }));
    await screen.findByText(EMPTY_PAIRS);
    fireEvent.click(screen.getByRole('button', { name: 'People vs models' }));
    await screen.findByRole('table', { name: 'People vs models: 6 judged debates' });
    expect(screen.queryByRole('checkbox', { name: 'Only side-swapped pairs' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Models' }));
    const toggle = await screen.findByRole('checkbox', { name: 'Only side-swapped pairs' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(asked).toEqual([
      { subject: 'MODEL', pairsOnly: false, controlled: false },
      { subject: 'MODEL', pairsOnly: true, controlled: false },
      { subject: 'PEOPLE', pairsOnly: false, controlled: false },
    ]);
  });

  it('controls every board for length when asked, and keeps the choice in the address', async () => {
    // Controlled, the models' board ranks them the other way (GPT-4o wrote longer, say).
    const controlledModels: Board = {
      ...models,
      controlled: true,
      rows: [row('llama', 'Llama 3.1', 1010), row('gpt-4o', 'GPT-4o', 990)],
    };
    const asked = fakeGateway(({ subject, controlled }) =>
      subject === 'PEOPLE' ? { ...people, controlled } : controlled ? controlledModels : models,
    );
    renderWithProviders(
      <>
        <LeaderboardTab />
        <Address />
      </>,
      { preloadedState: signedOut, route: '/community/leaderboard?board=models' },
    );
    const table = await screen.findByRole('table', { name: 'Models: 14 judged debates' });
    expect(cells(table).map((cellsOfRow) => cellsOfRow[1])).toEqual(['GPT-4o', 'Llama 3.1']);
    expect(screen.queryByText(CONTROLLED_NOTE)).toBeNull();
    const toggle = screen.getByRole('checkbox', { name: CONTROL_LABEL });
    expect((toggle as HTMLInputElement).checked).toBe(false);

    fireEvent.click(toggle);
    expect(await screen.findByText(CONTROLLED_NOTE)).toBeTruthy();
    expect(
      cells(screen.getByRole('table', { name: 'Models: 14 judged debates' })).map(
        (cellsOfRow) => cellsOfRow[1],
      ),
    ).toEqual(['Llama 3.1', 'GPT-4o']);
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe(
      '?board=models&controlled=1',
    );
    // The People board too, still controlled.
    fireEvent.click(screen.getByRole('button', { name: 'People vs models' }));
    await screen.findByRole('table', { name: 'People vs models: 6 judged debates' });
    expect(screen.getByText(CONTROLLED_NOTE)).toBeTruthy();
    expect(
      (screen.getByRole('checkbox', { name: CONTROL_LABEL }) as HTMLInputElement).checked,
    ).toBe(true);
    // And off again: the address forgets it.
    fireEvent.click(screen.getByRole('checkbox', { name: CONTROL_LABEL }));
    await waitFor(() => expect(screen.queryByText(CONTROLLED_NOTE)).toBeNull());
    expect(screen.getByRole('status', { name: 'address' }).textContent).toBe('?board=people');
    expect(asked).toEqual([
      { subject: 'MODEL', pairsOnly: false, controlled: false },
      { subject: 'MODEL', pairsOnly: false, controlled: true },
      { subject: 'PEOPLE', pairsOnly: false, controlled: true },
      { subject: 'PEOPLE', pairsOnly: false, controlled: false },
    ]);
  });

  it('opens on the controlled boards a link names', async () => {
    const asked = fakeGateway(({ subject, controlled }) => ({ ...styles, subject, controlled }));
    renderWithProviders(<LeaderboardTab />, {
      preloadedState: signedOut,
      route: '/community/leaderboard?board=styles&controlled=1',
    });
    await screen.findByRole('table', { name: 'Rhetoric styles: 4 judged debates' });
    expect(screen.getByText(CONTROLLED_NOTE)).toBeTruthy();
    expect(
      (screen.getByRole('checkbox', { name: CONTROL_LABEL }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(asked).toEqual([{ subject: 'STYLE', pairsOnly: false, controlled: true }]);
  });

  it('says what fills an empty board', async () => {
    fakeGateway(() => empty);
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    expect(await screen.findByText(EMPTY_BOARD)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    // No board rates anything: it opens on the models'.
    expect(screen.getByRole('button', { name: 'Models' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('says so when the board cannot be loaded', async () => {
    fakeGateway(() => null);
    renderWithProviders(<LeaderboardTab />, { preloadedState: signedOut });
    expect((await screen.findByRole('alert')).textContent).toBe(LOAD_FAILURE);
  });
});
