import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CatalogQuery, DebateSettingsInput } from '../../gql/graphql';
import { renderWithProviders } from '../../test/render';
import { initialAuthState } from '../auth/auth.slice';
import type { WrittenBy } from '../debates/provenance';
import { EnginePage, speakingText } from './EnginePage';
import { eventReceived, type RunEvent, runDebate } from './engine.slice';
import { offlineTurn } from '../../test/written-by';

const catalog: CatalogQuery['catalog'] = {
  categories: ['Politics'],
  rhetoricStyles: ['standard'],
  debateFormats: ['structured'],
  searcher: false,
  localModel: null,
  roundTitles: ['Constructive Arguments', 'Rebuttal', 'Summary'],
  topics: ['Is open-source software a public good?'],
  models: [
    { id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'single' },
    {
      id: 'llama',
      label: 'Llama 3.1 (Ollama)',
      kind: 'model',
      status: 'degraded',
      speakerMode: 'team',
    },
    {
      id: 'offline',
      label: 'Offline speaker',
      kind: 'offline',
      status: 'ok',
      speakerMode: 'single',
    },
  ],
};

const signedIn = {
  auth: {
    ...initialAuthState(),
    status: 'signedIn' as const,
    user: {
      uid: 'u1',
      email: 'ada@example.org',
      displayName: null,
      photoURL: null,
      isPro: false,
      creationTime: null,
      mustVerifyEmail: false,
    },
  },
};

const NO_FREE = 'No free debates left.';
const realFetch = globalThis.fetch;

/** The gateway: the catalogue (above's by default), and a start refused (nothing to subscribe to). */
function fakeGateway(offered: CatalogQuery['catalog'] = catalog) {
  const started: DebateSettingsInput[] = [];
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const request = JSON.parse(String(init?.body)) as {
      query: string;
      variables?: { settings: DebateSettingsInput };
    };
    const answer = (body: object) => ({ ok: true, status: 200, json: async () => body });
    if (request.query.includes('query Catalog')) return answer({ data: { catalog: offered } });
    if (request.query.includes('mutation StartDebate') && request.variables) {
      started.push(request.variables.settings);
      return answer({ errors: [{ message: NO_FREE }] });
    }
    return new Promise<never>(() => undefined);
  }) as unknown as typeof fetch;
  return started;
}

afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

const event = (seq: number, fields: Partial<RunEvent>): RunEvent => ({
  type: 'textDelta',
  seq,
  turn: null,
  speaker: null,
  round: null,
  roundTitle: null,
  text: null,
  summary: null,
  failed: null,
  cutOff: null,
  stage: null,
  team: null,
  message: null,
  freeDebateUsed: null,
  firstModel: null,
  secondModel: null,
  model: null,
  writtenBy: null,
  judge: null,
  verdict: null,
  ...fields,
});

const offlineRef = { id: 'offline', label: 'Offline speaker', kind: 'offline' };
const gpt4oRef = { id: 'gpt-4o', label: 'GPT-4o', kind: 'model' };
const gpt4oTurn: WrittenBy = {
  ...offlineTurn,
  kind: 'model',
  modelId: 'gpt-4o',
  label: 'GPT-4o',
  serverModel: 'gpt-4o-2024-08-06',
  tokensIn: 812,
  tokensOut: 230,
  firstTokenMs: 812,
  totalMs: 5_210,
};

describe(EnginePage.name, () => {
  it('offers each speaker the catalogue, the first by default, and sends each its own pick', async () => {
    const started = fakeGateway();
    renderWithProviders(<EnginePage />, { preloadedState: signedIn, route: '/engine' });
    // The catalogue has arrived once Random topic is enabled.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Random topic' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
    for (const button of screen.getAllByRole('button', { name: 'Settings' })) {
      fireEvent.click(button);
    }
    const selects = screen.getAllByLabelText<HTMLSelectElement>('Model');
    expect(selects).toHaveLength(2);
    for (const select of selects) {
      expect([...select.options].map((option) => option.textContent)).toEqual([
        'GPT-4o',
        'Llama 3.1 (Ollama) (failing lately)',
        'Offline speaker',
      ]);
      expect(select.value).toBe('gpt-4o');
    }
    fireEvent.change(selects[1] as HTMLSelectElement, { target: { value: 'offline' } });
    fireEvent.change(screen.getByLabelText('Debate topic'), {
      target: { value: 'Is open-source software a public good?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Begin discussion' }));
    await screen.findByText(NO_FREE);
    expect(started).toHaveLength(1);
    expect(started[0]?.first.model).toBe('gpt-4o');
    expect(started[0]?.second.model).toBe('offline');
  });

  it('says the local model is on its way, and offers it first once ready without a reload', async () => {
    const offline = catalog.models.slice(2);
    const local = { id: 'local', label: 'Local: Qwen2.5 1.5B Instruct', kind: 'model' };
    const qwen = 'Qwen2.5 1.5B Instruct';
    // The catalogue as the page asks it again: downloading, then loading, then ready.
    const answers: CatalogQuery['catalog'][] = [
      {
        ...catalog,
        models: offline,
        localModel: { status: 'downloading', name: qwen, progress: 0.437 },
      },
      {
        ...catalog,
        models: offline,
        localModel: { status: 'loading', name: qwen, progress: null },
      },
      {
        ...catalog,
        models: [{ ...local, status: 'ok', speakerMode: 'single' }, ...offline],
        localModel: { status: 'ready', name: qwen, progress: null },
      },
    ];
    let asked = 0;
    globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
      if (!String(init?.body).includes('query Catalog')) return new Promise<never>(() => undefined);
      const answer = answers[Math.min(asked, answers.length - 1)];
      asked += 1;
      return { ok: true, status: 200, json: async () => ({ data: { catalog: answer } }) };
    }) as unknown as typeof fetch;
    // The page's asking again is timed: the test moves the clock.
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const wait = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));
    renderWithProviders(<EnginePage />, { route: '/engine' });
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'The local model is downloading: 43 % — debates use the offline speaker until it is ready',
    );
    for (const button of screen.getAllByRole('button', { name: 'Settings' })) {
      fireEvent.click(button);
    }
    // A speaker given a model keeps it; the other is given the catalogue's first.
    fireEvent.change(screen.getAllByLabelText<HTMLSelectElement>('Model')[1] as HTMLSelectElement, {
      target: { value: 'offline' },
    });
    await wait(3_000);
    await screen.findByText(
      'The local model is loading — debates use the offline speaker until it is ready',
    );
    await wait(3_000);
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    const selects = screen.getAllByLabelText<HTMLSelectElement>('Model');
    expect(
      [...(selects[0] as HTMLSelectElement).options].map((option) => option.textContent),
    ).toEqual(['Local: Qwen2.5 1.5B Instruct', 'Offline speaker']);
    expect(selects.map((select) => select.value)).toEqual(['local', 'offline']);
    // Ready: the catalogue is not asked again.
    const settled = asked;
    await wait(30_000);
    expect(asked).toBe(settled);
  });

  it("shows a team's stage, replaces the draft with the revision, and how the speech was made", () => {
    const { store } = renderWithProviders(<EnginePage />, {
      preloadedState: signedIn,
      route: '/engine',
    });
    const position = { round: 1, roundTitle: 'Constructive Arguments' };
    const dispatch = (seq: number, fields: Partial<RunEvent>) =>
      act(() => {
        store.dispatch(eventReceived(event(seq, fields)));
      });
    dispatch(0, { type: 'runStarted', firstModel: gpt4oRef, secondModel: offlineRef });
    dispatch(1, { type: 'turnStarted', turn: 0, speaker: 'First Speaker', ...position });
    dispatch(2, { type: 'turnStage', turn: 0, stage: 'analyzing' });
    const speaking = () => {
      const { current } = store.getState().engine;
      return current ? speakingText(current) : null;
    };
    expect(speaking()).toBe(
      "First Speaker's team is analyzing the debate: round 1 of 3, Constructive Arguments",
    );
    dispatch(3, { type: 'turnStage', turn: 0, stage: 'writing' });
    dispatch(4, { type: 'textDelta', turn: 0, text: 'The first draft.' });
    dispatch(5, { type: 'turnStage', turn: 0, stage: 'reviewing' });
    expect(screen.getByText('The first draft.')).toBeTruthy();
    dispatch(6, { type: 'turnStage', turn: 0, stage: 'revising' });
    expect(speaking()).toBe(
      "First Speaker's team is revising: round 1 of 3, Constructive Arguments",
    );
    dispatch(7, { type: 'textDelta', turn: 0, text: 'The revision.' });
    expect(screen.queryByText('The first draft.')).toBeNull();
    expect(screen.getByText('The revision.')).toBeTruthy();
    dispatch(8, {
      type: 'turnCompleted',
      turn: 0,
      text: 'The revision.',
      summary: 'Revised.',
      writtenBy: gpt4oTurn,
      team: {
        searched: true,
        evidence: [{ title: 'A study of car-free centres', url: 'https://example.org/study' }],
        plan: 'Argue the benefit.',
        review: 'fixes',
        fixes: ['Answer the cost.'],
        revised: true,
        steps: 5,
      },
    });
    const notes = screen.getByText('How this speech was made').closest('details');
    expect(notes?.open).toBe(false);
    expect(notes?.textContent).toContain("The analyzer's plan: Argue the benefit.");
    expect(notes?.textContent).toContain('Answer the cost.');
    const source = within(notes as HTMLElement).getByRole('link', {
      name: 'A study of car-free centres',
    });
    expect(source.getAttribute('href')).toBe('https://example.org/study');
    expect(source.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(notes?.textContent).toContain(
      'Made in 5 steps: searcher, analyzer, writer, reviewer, revision.',
    );
  });

  it('says who writes each speaker, and what wrote each completed turn', async () => {
    const { store } = renderWithProviders(<EnginePage />, {
      preloadedState: signedIn,
      route: '/engine',
    });
    act(() => {
      store.dispatch(
        eventReceived(
          event(0, { type: 'runStarted', firstModel: gpt4oRef, secondModel: offlineRef }),
        ),
      );
      const position = { round: 1, roundTitle: 'Constructive Arguments' };
      store.dispatch(
        eventReceived(
          event(1, {
            type: 'turnStarted',
            turn: 0,
            speaker: 'First Speaker',
            ...position,
            model: gpt4oRef,
          }),
        ),
      );
      store.dispatch(
        eventReceived(
          event(2, {
            type: 'turnCompleted',
            turn: 0,
            text: 'Cars.',
            summary: 'Cars.',
            writtenBy: gpt4oTurn,
          }),
        ),
      );
      store.dispatch(
        eventReceived(
          event(3, {
            type: 'turnStarted',
            turn: 1,
            speaker: 'Second Speaker',
            ...position,
            model: offlineRef,
          }),
        ),
      );
      store.dispatch(
        eventReceived(
          event(4, {
            type: 'turnCompleted',
            turn: 1,
            text: 'No.',
            summary: 'No.',
            writtenBy: offlineTurn,
          }),
        ),
      );
    });
    expect(
      screen.getByText(
        'First Speaker is written by GPT-4o. Second Speaker is written by the offline speaker: no AI model is called for it.',
      ),
    ).toBeTruthy();
    const first = screen.getByRole('article', { name: 'First Speaker, Constructive Arguments' });
    expect(
      within(first).getByText(
        'Written by GPT-4o (gpt-4o-2024-08-06) · 812 in / 230 out tokens · first words 0.8 s · 5.2 s',
      ),
    ).toBeTruthy();
    const second = screen.getByRole('article', { name: 'Second Speaker, Constructive Arguments' });
    expect(within(second).getByText('Written by the offline speaker · 5.2 s')).toBeTruthy();
    expect(second.textContent).not.toMatch(/gpt/i);
  });

  it('says the model failed a failed turn', () => {
    const { store } = renderWithProviders(<EnginePage />, {
      preloadedState: signedIn,
      route: '/engine',
    });
    act(() => {
      store.dispatch(
        eventReceived(
          event(0, { type: 'runStarted', firstModel: gpt4oRef, secondModel: gpt4oRef }),
        ),
      );
      store.dispatch(
        eventReceived(
          event(1, {
            type: 'turnStarted',
            turn: 0,
            speaker: 'First Speaker',
            round: 1,
            roundTitle: 'Constructive Arguments',
            model: gpt4oRef,
          }),
        ),
      );
      store.dispatch(
        eventReceived(
          event(2, {
            type: 'turnCompleted',
            turn: 0,
            text: 'An error occurred while generating the argument.',
            summary: 'An error occurred while generating the argument.',
            failed: true,
            writtenBy: { ...gpt4oTurn, failedTurns: 1 },
          }),
        ),
      );
    });
    expect(screen.getByText('Both speakers are written by GPT-4o.')).toBeTruthy();
    expect(screen.getByText('GPT-4o failed to write this turn')).toBeTruthy();
  });
});

describe('the live transcript', () => {
  const settings: DebateSettingsInput = {
    topic: 'Should cities ban private cars from their centres?',
    debateFormat: 'structured',
    moderatorEnabled: true,
    first: { model: 'gpt-4o', stance: 0.6, rhetoricStyle: 'standard', personality: '' },
    second: { model: 'gpt-4o', stance: -0.3, rhetoricStyle: 'standard', personality: '' },
  };

  /** The page, a run of `settings` begun on it, and a way to play the run's events. */
  function running() {
    fakeGateway();
    const { store } = renderWithProviders(<EnginePage />, {
      preloadedState: signedIn,
      route: '/engine',
    });
    act(() => {
      store.dispatch(runDebate.pending('run', { kind: 'new', settings }));
    });
    let seq = 0;
    return (fields: Partial<RunEvent>) =>
      act(() => {
        store.dispatch(eventReceived(event(seq, fields)));
        seq += 1;
      });
  }
  const turnOf = (name: string) => screen.getByRole('article', { name });
  const speak = (
    play: ReturnType<typeof running>,
    turn: number,
    speaker: string,
    words: { text: string; summary: string },
  ) => {
    const position = speaker === 'Moderator' ? { round: 0, roundTitle: 'Opening' } : {};
    play({
      type: 'turnStarted',
      turn,
      speaker,
      round: 1,
      roundTitle: 'Constructive Arguments',
      ...position,
    });
    play({ type: 'textDelta', turn, text: words.text });
    play({ type: 'turnCompleted', turn, ...words, writtenBy: gpt4oTurn });
  };

  it('keeps the turn just finished open until the next one starts; Show Less still closes it', () => {
    const play = running();
    play({ type: 'runStarted', firstModel: gpt4oRef, secondModel: gpt4oRef });
    speak(play, 0, 'First Speaker', {
      text: 'The whole first speech.',
      summary: 'First, briefly.',
    });
    const first = turnOf('First Speaker, Constructive Arguments');
    expect(within(first).getByText('The whole first speech.')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Show Less' })).toBeTruthy();

    play({
      type: 'turnStarted',
      turn: 1,
      speaker: 'Second Speaker',
      round: 1,
      roundTitle: 'Constructive Arguments',
    });
    // The next turn started: the one before shows its summary, as every earlier turn does.
    expect(within(first).queryByText('The whole first speech.')).toBeNull();
    expect(within(first).getByText('First, briefly.')).toBeTruthy();
    play({ type: 'textDelta', turn: 1, text: 'The whole second speech.' });
    play({
      type: 'turnCompleted',
      turn: 1,
      text: 'The whole second speech.',
      summary: 'Second, briefly.',
      writtenBy: gpt4oTurn,
    });
    const second = turnOf('Second Speaker, Constructive Arguments');
    expect(within(second).getByText('The whole second speech.')).toBeTruthy();
    fireEvent.click(within(second).getByRole('button', { name: 'Show Less' }));
    expect(within(second).getByText('Second, briefly.')).toBeTruthy();
    fireEvent.click(within(second).getByRole('button', { name: 'Show More' }));
    expect(within(second).getByText('The whole second speech.')).toBeTruthy();
    // An earlier turn still opens and closes on request.
    fireEvent.click(within(first).getByRole('button', { name: 'Show More' }));
    expect(within(first).getByText('The whole first speech.')).toBeTruthy();
  });

  it("heads each speaker's turns with its side, in its stance's colour; the moderator neutral", () => {
    const play = running();
    play({ type: 'runStarted', firstModel: gpt4oRef, secondModel: gpt4oRef });
    speak(play, 0, 'Moderator', { text: 'Welcome.', summary: 'Welcome.' });
    speak(play, 1, 'First Speaker', { text: 'Yes.', summary: 'Yes.' });
    speak(play, 2, 'Second Speaker', { text: 'No.', summary: 'No.' });
    const turns = screen.getAllByRole('article');
    expect(turns.map((turn) => turn.querySelector('h4')?.textContent)).toEqual([
      'Moderator',
      'First Speaker · For',
      'Second Speaker · Against',
    ]);
    expect(turns.map((turn) => turn.className)).toEqual([
      'turn side-moderator',
      'turn side-first stance-strongly-for',
      'turn side-second stance-against',
    ]);
  });
});

describe('the engine settings', () => {
  it("opens 'Global Settings' as a section, its formats by name, the moderator explained", async () => {
    const started = fakeGateway({
      ...catalog,
      debateFormats: ['structured', 'oxford', 'crossfire', 'parliamentary', 'comment_section'],
    });
    renderWithProviders(<EnginePage />, { preloadedState: signedIn, route: '/engine' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Random topic' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
    const toggle = screen.getByRole('button', { name: 'Global Settings' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Debate format')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const part = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    const format = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Debate format' });
    expect(part?.contains(format)).toBe(true);
    expect([...format.options].map((option) => [option.value, option.textContent])).toEqual([
      ['structured', 'Structured'],
      ['oxford', 'Oxford'],
      ['crossfire', 'Crossfire'],
      ['parliamentary', 'Parliamentary'],
      ['comment_section', 'Comment section'],
    ]);
    fireEvent.change(format, { target: { value: 'comment_section' } });
    expect(
      screen.getByRole('combobox', {
        name: 'Debate format',
        description: 'Like an online comment section: short, pointed and informal.',
      }),
    ).toBe(format);
    expect(
      screen.getByRole('checkbox', {
        name: 'Moderator',
        description:
          'A neutral moderator opens the debate and closes it with a fair wrap-up, taking no side.',
      }),
    ).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Debate topic'), {
      target: { value: 'Is open-source software a public good?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Begin discussion' }));
    await screen.findByText(NO_FREE);
    // The value sent is the stored one, not its name.
    expect(started[0]?.debateFormat).toBe('comment_section');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
