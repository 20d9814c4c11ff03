import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CatalogQuery, DebateSettingsInput } from '../../gql/graphql';
import { renderWithProviders } from '../../test/render';
import type { WrittenBy } from '../debates/provenance';
import { EnginePage, speakingText } from './EnginePage';
import { engineSlice, eventReceived, type RunEvent, runDebate } from './engine.slice';
import { offlineTurn, personTurn } from '../../test/written-by';
import { fakeRunSocket } from '../../test/run-socket';
import { runEvent as event, signedInState } from '../../test/fixtures';

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

const signedIn = signedInState();

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

describe('you against a model', () => {
  // Each test begins with the defaults: no settings kept from the tests before, no draft.
  beforeEach(() => {
    window.sessionStorage.clear();
    window.localStorage.clear();
  });
  afterEach(() => {
    window.sessionStorage.clear();
    window.localStorage.clear();
  });

  const topic = 'Should cities ban private cars from their centres?';
  const catalogueReady = () =>
    waitFor(() =>
      expect(screen.getByRole('button', { name: 'Random topic' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );

  it("sends the user's side as the person's, and the model on the other side", async () => {
    const started = fakeGateway();
    renderWithProviders(<EnginePage />, { preloadedState: signedIn, route: '/engine' });
    await catalogueReady();
    fireEvent.click(screen.getByRole('radio', { name: 'You against a model' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Against' }));
    fireEvent.click(screen.getByRole('radio', { name: 'The model' }));
    // One speaker card, the model's: it opens, so it is the First Speaker, now For.
    expect(screen.getAllByRole('button', { name: 'Settings' })).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'First Speaker' })).toBeTruthy();
    expect(screen.getByText('For', { selector: 'strong' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'offline' } });
    fireEvent.change(screen.getByLabelText('Debate topic'), { target: { value: topic } });
    fireEvent.click(screen.getByRole('button', { name: 'Begin discussion' }));
    await screen.findByText(NO_FREE);
    expect(started).toEqual([
      {
        topic,
        debateFormat: 'structured',
        moderatorEnabled: false,
        first: { model: 'offline', stance: 0.6, rhetoricStyle: 'standard', personality: '' },
        second: { model: 'person', stance: -0.8, rhetoricStyle: 'standard', personality: '' },
        person: 'SECOND',
      },
    ]);
  });

  it('asks a signed-out visitor to sign in first', async () => {
    fakeGateway();
    renderWithProviders(<EnginePage />, { route: '/engine' });
    await catalogueReady();
    fireEvent.click(screen.getByRole('radio', { name: 'You against a model' }));
    expect(screen.getByRole('dialog', { name: 'Sign in required' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Two models' }).checked).toBe(true);
  });

  const personRef = { id: 'person', label: 'Ada Lovelace', kind: 'person' };
  const FIFTEEN_MINUTES = 15 * 60_000;

  /** The page with the user's run against the offline speaker going, the user first. */
  function versus() {
    const rendered = renderWithProviders(<EnginePage />, {
      preloadedState: signedIn,
      route: '/engine',
    });
    const { store } = rendered;
    act(() => {
      store.dispatch(
        runDebate.pending('run', {
          kind: 'new',
          settings: {
            topic,
            debateFormat: 'structured',
            moderatorEnabled: false,
            first: { model: 'person', stance: 0.8, rhetoricStyle: 'standard', personality: '' },
            second: { model: 'offline', stance: -0.6, rhetoricStyle: 'standard', personality: '' },
            person: 'FIRST',
          },
        }),
      );
      store.dispatch(engineSlice.actions.runAccepted('run-p'));
    });
    let seq = 0;
    const play = (fields: Partial<RunEvent>) =>
      act(() => {
        store.dispatch(eventReceived(event(seq, fields)));
        seq += 1;
      });
    play({ type: 'runStarted', firstModel: personRef, secondModel: offlineRef });
    const awaiting = (turn: number, round: number, roundTitle: string, words: [number, number]) => {
      const at = Date.now();
      play({
        type: 'turnAwaiting',
        turn,
        speaker: 'First Speaker',
        round,
        roundTitle,
        minWords: words[0],
        maxWords: words[1],
        at,
        deadline: new Date(at + FIFTEEN_MINUTES).toISOString(),
      });
    };
    return { ...rendered, play, awaiting };
  }

  /** `count` words of a turn. */
  const words = (count: number) =>
    Array.from({ length: count }, (_, index) => `point${index}`).join(' ');

  /** The gateway answering Submit turn with `answer` (the answers in turn), and what it was sent. */
  function fakeSubmit(...answers: object[]) {
    const sent: { runId: string; turn: number; text: string }[] = [];
    globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
      const request = JSON.parse(String(init?.body)) as {
        query: string;
        variables: { runId: string; turn: number; text: string };
      };
      if (!request.query.includes('mutation SubmitTurn'))
        return new Promise<never>(() => undefined);
      sent.push(request.variables);
      const body = answers[Math.min(sent.length, answers.length) - 1];
      return { ok: true, status: 200, json: async () => body };
    }) as unknown as typeof fetch;
    return sent;
  }

  it("counts the words against the round's limits, keeps the draft, shows a refusal, then the turn by its writer", async () => {
    const refusal =
      'Your turn is too short: at least 40 words for Constructive Arguments (you wrote 12).';
    const sent = fakeSubmit(
      { errors: [{ message: refusal, extensions: { code: 'TURN_TOO_SHORT' } }] },
      { data: { submitTurn: true } },
    );
    const { play, awaiting } = versus();
    expect(
      screen.getByText(
        'You are First Speaker. Second Speaker is written by the offline speaker: no AI model is called for it.',
      ),
    ).toBeTruthy();
    awaiting(0, 1, 'Constructive Arguments', [40, 400]);
    const editor = screen.getByRole('textbox', { name: 'Your turn: Constructive Arguments' });
    expect(document.activeElement).toBe(editor);
    // The user opens: there is no model's turn to answer yet.
    expect(screen.queryByText(/last turn/)).toBeNull();
    const submit = screen.getByRole('button', { name: 'Submit turn' });
    expect(screen.getByText('0 words (40 to 400)')).toBeTruthy();
    expect(screen.getByText(/^1[45]:\d\d left$/)).toBeTruthy();

    fireEvent.change(editor, { target: { value: words(12) } });
    expect(screen.getByText('12 words (40 to 400)')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(window.localStorage.getItem('debate-draft:run-p:0')).toBe(words(12));

    fireEvent.change(editor, { target: { value: words(45) } });
    expect(screen.getByText('45 words (40 to 400)')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(false);
    fireEvent.change(editor, { target: { value: words(401) } });
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(editor, { target: { value: words(45) } });

    // Refused: the reason is shown, the text and its draft stay.
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(window.localStorage.getItem('debate-draft:run-p:0')).toBe(words(45));
    // Accepted: the draft is forgotten; the turn comes back as the run's, by the user's name.
    fireEvent.click(submit);
    await waitFor(() => expect(window.localStorage.getItem('debate-draft:run-p:0')).toBeNull());
    // Until the run says so, the turn sent is what the editor shows, and it is not sent twice.
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(editor.hasAttribute('readonly')).toBe(true);
    expect(sent).toEqual([
      { runId: 'run-p', turn: 0, text: words(45) },
      { runId: 'run-p', turn: 0, text: words(45) },
    ]);
    play({
      type: 'turnCompleted',
      turn: 0,
      text: words(45),
      summary: 'point0 point1.',
      writtenBy: personTurn,
    });
    expect(screen.queryByRole('textbox', { name: /^Your turn/ })).toBeNull();
    const mine = screen.getByRole('article', { name: 'First Speaker, Constructive Arguments' });
    expect(mine.querySelector('h4')?.textContent).toBe('First Speaker (you) · For');
    expect(within(mine).getByText('Written by Ada Lovelace')).toBeTruthy();

    // The model answers; the user's next turn shows its words beside the editor.
    play({
      type: 'turnStarted',
      turn: 1,
      speaker: 'Second Speaker',
      round: 1,
      roundTitle: 'Constructive Arguments',
      model: offlineRef,
    });
    play({
      type: 'turnCompleted',
      turn: 1,
      text: 'You said: “point0 point1.” Not so.',
      summary: 'Not so.',
      writtenBy: offlineTurn,
    });
    awaiting(2, 2, 'Rebuttal', [25, 300]);
    const answering = screen.getByRole('article', { name: 'Second Speaker’s last turn · Against' });
    expect(within(answering).getByText('You said: “point0 point1.” Not so.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Your turn: Rebuttal' })).toBeTruthy();
    expect(screen.getByText('0 words (25 to 300)')).toBeTruthy();
  });

  it('follows the run again after a reload, its turn awaiting the draft typed before', async () => {
    fakeGateway();
    // What the page left in the browser: the run it followed, and the draft of the turn.
    window.localStorage.setItem(
      'engineRun',
      JSON.stringify({ userId: 'u1', runId: 'run-p', moderatorEnabled: false, rematchOf: null }),
    );
    window.localStorage.setItem('debate-draft:run-p:0', 'What I had typed before the reload');
    const at = Date.now();
    const socket = fakeRunSocket((runId) => ({
      events:
        runId === 'run-p'
          ? [
              event(0, {
                type: 'runStarted',
                topic,
                firstStance: 0.8,
                secondStance: -0.6,
                firstModel: personRef,
                secondModel: offlineRef,
              }),
              event(1, {
                type: 'turnAwaiting',
                turn: 0,
                speaker: 'First Speaker',
                round: 1,
                roundTitle: 'Constructive Arguments',
                minWords: 40,
                maxWords: 400,
                at,
                deadline: new Date(at + FIFTEEN_MINUTES).toISOString(),
              }),
            ]
          : [],
      complete: false,
    }));
    try {
      // A fresh page: nothing in the store, all of it from the browser's storage and the run.
      const { unmount } = renderWithProviders(<EnginePage />, {
        preloadedState: signedIn,
        route: '/engine',
      });
      const editor = await screen.findByRole<HTMLTextAreaElement>('textbox', {
        name: 'Your turn: Constructive Arguments',
      });
      expect(editor.value).toBe('What I had typed before the reload');
      expect(screen.getByText('7 words (40 to 400)')).toBeTruthy();
      unmount();
    } finally {
      socket.restore();
    }
  });

  it("keeps the model on the other side of the user's, never neutral", async () => {
    const started = fakeGateway();
    renderWithProviders(<EnginePage />, { preloadedState: signedIn, route: '/engine' });
    await catalogueReady();
    fireEvent.click(screen.getByRole('radio', { name: 'You against a model' }));
    // The user is For: the model's slider offers Against only, at least 0.2 from neutral.
    const slider = screen.getByRole<HTMLInputElement>('slider');
    expect([slider.min, slider.max]).toEqual(['-1', '-0.2']);
    fireEvent.change(slider, { target: { value: '-0.2' } });
    // Against: the model is For, as far from neutral as it was.
    fireEvent.click(screen.getByRole('radio', { name: 'Against' }));
    expect([slider.min, slider.max]).toEqual(['0.2', '1']);
    expect(slider.value).toBe('0.2');
    fireEvent.change(screen.getByLabelText('Debate topic'), { target: { value: topic } });
    fireEvent.click(screen.getByRole('button', { name: 'Begin discussion' }));
    await screen.findByText(NO_FREE);
    expect(
      started.map(({ first, second, person }) => [first.stance, second.stance, person]),
    ).toEqual([[-0.8, 0.2, 'FIRST']]);
  });

  it('says the debate waited its time for the turn and ended, what was written kept', () => {
    const { play, awaiting } = versus();
    awaiting(0, 1, 'Constructive Arguments', [40, 400]);
    play({ type: 'runStopped', freeDebateUsed: false, stopReason: 'timedOut' });
    expect(screen.queryByRole('textbox', { name: /^Your turn/ })).toBeNull();
    expect(
      screen.getByText(
        'This debate waited 15 minutes for your turn and ended. What was written is kept.',
      ),
    ).toBeTruthy();
  });
});
