import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { setupStore } from '../../app/store';
import {
  engineSlice,
  eventReceived,
  type RunEvent,
  runDebate,
  runRestored,
  stopDebate,
  stoppedText,
  type UnsavedRun,
} from './engine.slice';

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
