import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { setupStore } from '../../app/store';
import { fakeRunSocket } from '../../test/run-socket';
import { signOut } from '../auth/auth.slice';
import { type FollowedRun, readFollowedRun, writeFollowedRun } from './draft';
import {
  engineSlice,
  eventReceived,
  followRun,
  runDebate,
  runRestored,
  stopDebate,
  stoppedText,
  submitTurn,
  type UnsavedRun,
} from './engine.slice';
import { draftKey } from './person';
import { runEvent as event, signedInState } from '../../test/fixtures';

const offline = { id: 'offline', label: 'Offline speaker', kind: 'offline' };
const position = (turn: number, speaker: string) => ({
  turn,
  speaker,
  round: 1,
  roundTitle: 'Constructive Arguments',
});

/** A store with a run going: the first speaker's opening written, the second's under way. */
function runningStore() {
  const store = setupStore();
  store.dispatch(
    runDebate.pending('request', {
      kind: 'new',
      settings: {
        topic: 'Should museums be free?',
        debateFormat: 'structured',
        moderatorEnabled: false,
        first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
        second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
      },
    }),
  );
  store.dispatch(engineSlice.actions.runAccepted('run-1'));
  const events = [
    event(0, { type: 'runStarted', firstModel: offline, secondModel: offline }),
    event(1, { type: 'turnStarted', ...position(0, 'First Speaker'), model: offline }),
    event(2, { type: 'textDelta', turn: 0, text: 'Museums belong to all.' }),
    event(3, {
      type: 'turnCompleted',
      ...position(0, 'First Speaker'),
      text: 'Museums belong to all.',
      summary: 'Free for all.',
      failed: false,
      cutOff: false,
    }),
    event(4, { type: 'turnStarted', ...position(1, 'Second Speaker'), model: offline }),
    event(5, { type: 'textDelta', turn: 1, text: 'Someone has to' }),
  ];
  for (const received of events) store.dispatch(eventReceived(received));
  return store;
}

describe('the engine, stopped', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('shows the run stopped, the cut-off turn kept as written, and whether the free debate was used', () => {
    const store = runningStore();
    store.dispatch(
      eventReceived(
        event(6, {
          type: 'turnCompleted',
          ...position(1, 'Second Speaker'),
          text: 'Someone has to',
          summary: 'Stopped before the end of this turn.',
          failed: false,
          cutOff: true,
        }),
      ),
    );
    store.dispatch(eventReceived(event(7, { type: 'runStopped', freeDebateUsed: true })));
    const engine = store.getState().engine;
    expect([engine.status, engine.freeDebateUsed, engine.current]).toEqual(['stopped', true, null]);
    expect(engine.turns.map((turn) => [turn.speaker, turn.text, turn.cutOff])).toEqual([
      ['First Speaker', 'Museums belong to all.', false],
      ['Second Speaker', 'Someone has to', true],
    ]);
    expect(stoppedText(true)).toBe('Debate stopped. It used one of your free debates.');
    expect(stoppedText(false)).toBe('Debate stopped. Your free debate was given back.');
  });

  it('says Stop is under way until it is answered, and why when it could not be done', async () => {
    const store = runningStore();
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ errors: [{ message: 'No such debate run' }] }),
    })) as unknown as typeof fetch;
    const stopping = store.dispatch(stopDebate('run-1'));
    expect(store.getState().engine.stopping).toBe(true);
    await stopping;
    const engine = store.getState().engine;
    // Not stopped: the debate goes on, and the user is told.
    expect([engine.status, engine.stopping]).toEqual(['running', false]);
    expect(engine.error).toBe('The debate could not be stopped: No such debate run. It goes on.');
  });

  it('drops a turn stopped before its first word, as the saved debate does', () => {
    const store = runningStore();
    store.dispatch(
      eventReceived(
        event(6, {
          type: 'turnCompleted',
          ...position(1, 'Second Speaker'),
          text: 'Someone has to pay.',
          summary: 'Pay.',
          failed: false,
          cutOff: false,
        }),
      ),
    );
    // The next turn has started, no word of it yet, when the stop lands.
    store.dispatch(
      eventReceived(
        event(7, { type: 'turnStarted', ...position(2, 'First Speaker'), model: offline }),
      ),
    );
    store.dispatch(eventReceived(event(8, { type: 'runStopped', freeDebateUsed: true })));
    const engine = store.getState().engine;
    expect(engine.turns.map((turn) => [turn.turn, turn.complete])).toEqual([
      [0, true],
      [1, true],
    ]);
  });

  it('keeps Stop pressed until the run says it stopped, and forgets a failed stop once it ends', async () => {
    const store = runningStore();
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ data: { stopDebate: { stopped: true, freeDebateUsed: true } } }),
    })) as unknown as typeof fetch;
    await store.dispatch(stopDebate('run-1'));
    // Answered before runStopped came through the subscription: still stopping.
    expect([store.getState().engine.status, store.getState().engine.stopping]).toEqual([
      'running',
      true,
    ]);
    store.dispatch(eventReceived(event(6, { type: 'runStopped', freeDebateUsed: true })));
    expect(store.getState().engine.stopping).toBe(false);

    const other = runningStore();
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ errors: [{ message: 'Unavailable' }] }),
    })) as unknown as typeof fetch;
    await other.dispatch(stopDebate('run-1'));
    expect(other.getState().engine.error).not.toBeNull();
    other.dispatch(eventReceived(event(6, { type: 'runCompleted' })));
    expect([other.getState().engine.status, other.getState().engine.error]).toEqual(['done', null]);
  });

  it('shows a stopped debate not saved yet as stopped again after a reload', () => {
    const store = setupStore();
    const speaker = { name: 'offline', stance: 0.6, rhetoricStyle: 'formal', writtenBy: null };
    const unsaved: UnsavedRun = {
      runId: 'run-2',
      topic: 'Should museums be free?',
      model1: speaker,
      model2: { ...speaker, stance: -0.6 },
      rounds: [],
      verdict: null,
      moderatorEnabled: false,
      rematchOf: null,
      stopped: true,
    };
    store.dispatch(runRestored(unsaved));
    expect(store.getState().engine).toMatchObject({ status: 'stopped', freeDebateUsed: true });
    store.dispatch(runRestored({ ...unsaved, stopped: false }));
    expect(store.getState().engine).toMatchObject({ status: 'done', freeDebateUsed: null });
  });
});

describe('the run followed through a reload', () => {
  const run: FollowedRun = {
    userId: 'u1',
    runId: 'run-p',
    moderatorEnabled: false,
    rematchOf: null,
  };
  const personRef = { id: 'person', label: 'Ada Lovelace', kind: 'person' };
  const signedIn = signedInState({ displayName: 'Ada Lovelace' });
  /** The run's events until it waits for the person's opening turn. */
  const untilAwaiting = [
    event(0, {
      type: 'runStarted',
      topic: 'Should museums be free?',
      firstStance: 0.8,
      secondStance: -0.6,
      firstModel: personRef,
      secondModel: offline,
    }),
    event(1, {
      type: 'turnAwaiting',
      ...position(0, 'First Speaker'),
      minWords: 40,
      maxWords: 400,
      at: Date.parse('2030-01-01T10:00:00Z'),
      deadline: '2030-01-01T10:15:00Z',
    }),
  ];
  let socket: ReturnType<typeof fakeRunSocket> | null = null;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    window.localStorage.clear();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    socket?.restore();
    socket = null;
    globalThis.fetch = realFetch;
    window.localStorage.clear();
    jest.restoreAllMocks();
  });

  it("keeps the user's run, and gives it back to that user only", () => {
    const storage = window.localStorage;
    expect(readFollowedRun(storage, 'u1')).toBeNull();
    writeFollowedRun(storage, run);
    expect(readFollowedRun(storage, 'u1')).toEqual(run);
    // Another user of the same browser is not shown it.
    expect(readFollowedRun(storage, 'u2')).toBeNull();
    // A record that is not one (an older shape without its user, or garbage) is none.
    storage.setItem('engineRun', JSON.stringify({ runId: 'run-p', moderatorEnabled: false }));
    expect(readFollowedRun(storage, 'u1')).toBeNull();
    storage.setItem('engineRun', '{not json');
    expect(readFollowedRun(storage, 'u1')).toBeNull();
    writeFollowedRun(storage, run);
    writeFollowedRun(storage, null);
    expect(storage.getItem('engineRun')).toBeNull();
  });

  it('rebuilds the page from the run’s events after a reload, the turn awaiting the person', async () => {
    socket = fakeRunSocket(() => ({ events: untilAwaiting, complete: false }));
    writeFollowedRun(window.localStorage, run);
    const store = setupStore(signedIn);
    void store.dispatch(followRun(run));
    await jestWaitFor(() => store.getState().engine.awaiting !== null);
    const engine = store.getState().engine;
    expect(engine).toMatchObject({
      status: 'running',
      runId: 'run-p',
      topic: 'Should museums be free?',
      stances: { first: 0.8, second: -0.6 },
      awaiting: { turn: 0, roundTitle: 'Constructive Arguments', minWords: 40, maxWords: 400 },
    });
    expect(engine.awaiting?.waitMs).toBe(15 * 60_000);
    // Still going: a second reload comes back to it again.
    expect(readFollowedRun(window.localStorage, 'u1')).toEqual(run);
  });

  it('forgets the run and its drafts once it has ended', async () => {
    socket = fakeRunSocket(() => ({
      events: [...untilAwaiting, event(2, { type: 'runStopped', freeDebateUsed: false })],
      complete: true,
    }));
    window.localStorage.setItem(draftKey('run-p', 0), 'What I had typed');
    const store = setupStore(signedIn);
    await store.dispatch(followRun(run));
    expect(store.getState().engine.status).toBe('stopped');
    expect(window.localStorage.getItem('engineRun')).toBeNull();
    expect(window.localStorage.getItem(draftKey('run-p', 0))).toBeNull();
  });

  it('leaves the page idle, forgetting the run and its drafts, when the run is gone', async () => {
    // The gateway's answer to an unknown run, or someone else's, as graphql-ws delivers it.
    socket = fakeRunSocket(() => ({
      errors: [{ message: 'No such debate run', extensions: { code: 'NOT_FOUND' } }],
    }));
    writeFollowedRun(window.localStorage, run);
    window.localStorage.setItem(draftKey('run-p', 0), 'What I had typed');
    window.localStorage.setItem(draftKey('run-other', 0), 'Another run’s draft');
    const store = setupStore(signedIn);
    await store.dispatch(followRun(run));
    const engine = store.getState().engine;
    expect([engine.status, engine.runId, engine.error]).toEqual(['idle', null, null]);
    expect(window.localStorage.getItem('engineRun')).toBeNull();
    expect(window.localStorage.getItem(draftKey('run-p', 0))).toBeNull();
    expect(window.localStorage.getItem(draftKey('run-other', 0))).toBe('Another run’s draft');
  });

  it('says the debate failed, and tries again after a reload, when the connection fails', async () => {
    socket = fakeRunSocket(() => ({ close: 1011 }));
    writeFollowedRun(window.localStorage, run);
    window.localStorage.setItem(draftKey('run-p', 0), 'What I had typed');
    const store = setupStore(signedIn);
    await store.dispatch(followRun(run));
    const engine = store.getState().engine;
    expect([engine.status, engine.error]).toEqual([
      'failed',
      'An error occurred during the debate. Please try again.',
    ]);
    // Not known to be gone: a reload follows it again, the draft still there.
    expect(readFollowedRun(window.localStorage, 'u1')).toEqual(run);
    expect(window.localStorage.getItem(draftKey('run-p', 0))).toBe('What I had typed');
  });

  it('forgets the run, its drafts and the page on sign-out, closing the subscription', async () => {
    socket = fakeRunSocket(() => ({ events: untilAwaiting, complete: false }));
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ data: { signOut: true } }),
    })) as unknown as typeof fetch;
    const store = setupStore(signedIn);
    const following = store.dispatch(followRun(run));
    await jestWaitFor(() => store.getState().engine.awaiting !== null);
    window.localStorage.setItem(draftKey('run-p', 0), 'What I had typed');
    window.localStorage.setItem(draftKey('run-older', 2), 'An older draft');
    window.localStorage.setItem('lastUserLoggedIn', 'true');
    await store.dispatch(signOut());
    await following;
    expect(store.getState().engine).toMatchObject({ status: 'idle', runId: null, awaiting: null });
    expect(socket.opened.every((opened) => opened.closed())).toBe(true);
    expect(window.localStorage.getItem('engineRun')).toBeNull();
    expect(window.localStorage.getItem(draftKey('run-p', 0))).toBeNull();
    expect(window.localStorage.getItem(draftKey('run-older', 2))).toBeNull();
  });

  it('keeps Submit pressed from the acceptance until the run says the turn is complete', async () => {
    const store = setupStore(signedIn);
    store.dispatch(followRun.pending('follow', run));
    for (const received of untilAwaiting) store.dispatch(eventReceived(received));
    globalThis.fetch = jest.fn(async () => ({
      ok: true,
      status: 200,
      json: async () => ({ data: { submitTurn: true } }),
    })) as unknown as typeof fetch;
    await store.dispatch(submitTurn({ runId: 'run-p', turn: 0, text: 'My opening.' }));
    // Accepted, not yet the run's: the turn cannot be sent again.
    expect(store.getState().engine.submitting).toBe(true);
    store.dispatch(
      eventReceived(
        event(2, { type: 'turnCompleted', ...position(0, 'First Speaker'), text: 'My opening.' }),
      ),
    );
    expect([store.getState().engine.submitting, store.getState().engine.awaiting]).toEqual([
      false,
      null,
    ]);
  });
});

/** Waits until `done` holds (the subscription's messages come in later tasks). */
async function jestWaitFor(done: () => boolean) {
  for (let tries = 0; tries < 200 && !done(); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(done()).toBe(true);
}
