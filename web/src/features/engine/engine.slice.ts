import { roundTitles, speakerNames, turnStages } from '@debate/contracts/constants';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import {
  currentAccessToken,
  type GraphqlFailure,
  graphqlRequest,
  isTransportFailure,
} from '../../app/api';
import { graphql } from '../../gql/gql';
import type {
  DebateRunSubscription,
  DebateRunSubscriptionVariables,
  DebateSettingsInput,
  UnsavedDebateQuery,
} from '../../gql/graphql';
import { type AuthState, signOut } from '../auth/auth.slice';
import type { WrittenBy } from '../debates/provenance';
import type { SideStances } from '../debates/sides';
import type { TeamNotesFields } from '../debates/team-notes';
import type { Verdict } from '../debates/verdict';
import { type FollowedRun, writeFollowedRun } from './draft';
import type { RunModel } from './models';
import { localStore, removeEveryTurnDraft, removeTurnDrafts } from './person';

/** The user's last debate, not saved yet, as the debates service keeps it. */
export type UnsavedRun = NonNullable<UnsavedDebateQuery['unsavedDebate']>;

/** One event of a run, as the gateway's debateRun subscription sends it. */
export type RunEvent = DebateRunSubscription['debateRun'];

export interface Turn {
  readonly turn: number;
  readonly speaker: string;
  readonly round: number;
  readonly roundTitle: string;
  readonly text: string;
  readonly summary: string;
  readonly complete: boolean;
  readonly failed: boolean;
  /** The run was stopped while it was being written: its text is what was written until then. */
  readonly cutOff: boolean;
  /** The model about to write it (turnStarted). */
  readonly model: RunModel | null;
  /** What wrote it, once complete (turnCompleted); null when the gateway did not say. */
  readonly writtenBy: WrittenBy | null;
  /** How a speaker team made it, once complete; null when one completion wrote it. */
  readonly team: TeamNotesFields | null;
}

/** What a speaker team's turn is doing (turnStage). */
export type TurnStage = (typeof turnStages)[number];

/** Who is speaking, and what a speaker team is doing (turnStage): null for a single speaker. */
export interface CurrentTurn {
  readonly speaker: string;
  readonly round: number;
  readonly roundTitle: string;
  readonly stage: TurnStage | null;
}

/** A person's turn the run waits for (turnAwaiting): the round's limits and the deadline. */
export interface AwaitingTurn {
  readonly turn: number;
  readonly speaker: string;
  readonly round: number;
  readonly roundTitle: string;
  readonly minWords: number;
  readonly maxWords: number;
  /** After it (ms since the epoch) the run ends, timed out, if nothing was submitted. */
  readonly deadline: number;
  /** How long the run waits for the turn, from its start to the deadline (ms). */
  readonly waitMs: number;
}

export interface EngineState {
  /** The run being shown, once the gateway accepted it: what 'Save Your Debate' saves. */
  readonly runId: string | null;
  /**
   * idle, running (the button disabled, a loading indicator), then done or failed (spec §4), or
   * stopped (Stop).
   */
  readonly status: 'idle' | 'running' | 'done' | 'failed' | 'stopped';
  /** Stop was pressed and its answer has not come yet. */
  readonly stopping: boolean;
  /** Once stopped: whether the run used a free debate (then it can be saved); else null. */
  readonly freeDebateUsed: boolean | null;
  readonly topic: string | null;
  /** Who writes each speaker's turns, from the run's first event (runStarted). */
  readonly models: { readonly first: RunModel; readonly second: RunModel } | null;
  /** Whether the run has a moderator (the first speaker's model writes its turns). */
  readonly moderator: boolean;
  /** Each speaker's stance, which heads and colours its turns; null before a run. */
  readonly stances: SideStances | null;
  readonly turns: readonly Turn[];
  /** The turn being written. */
  readonly current: CurrentTurn | null;
  /** The person's turn the run waits for; null when it waits for none. */
  readonly awaiting: AwaitingTurn | null;
  /**
   * The person's turn is on its way to the run (Submit turn), from the click until the run
   * confirms it (its turnCompleted): the editor cannot be changed or sent again meanwhile.
   */
  readonly submitting: boolean;
  /** Why the person's turn was refused (too short, too long, not their turn); else null. */
  readonly refusal: string | null;
  /** Stopped because the person's turn waited too long: how long it waited (ms); else null. */
  readonly timedOutAfterMs: number | null;
  /** Whether the run's debate was saved (else beginning another asks first). */
  readonly saved: boolean;
  /** The saved debate this run is the side-swapped rematch of; null: a new debate. */
  readonly rematchOf: string | null;
  /** The judge reading the debate after its last turn (judgingStarted). */
  readonly judge: RunModel | null;
  /** The judges' scorecard (verdictReady); null until it comes, or when the judge failed. */
  readonly verdict: Verdict | null;
  /** Why the run did not start or did not finish, for the user. */
  readonly error: string | null;
  /** The start to try again when it never reached the server (Retry); null otherwise. */
  readonly retry: RunRequest | null;
  /** The last event applied (events may arrive twice after a reconnection). */
  readonly seq: number;
}

const RUN_FAILED = 'An error occurred during the debate. Please try again.';

/** Stop could not be done: the debate goes on. */
function stopFailedText(reason: string | undefined): string {
  return `The debate could not be stopped${reason ? `: ${reason}` : ''}. It goes on.`;
}

/** After Stop: whether the free debate was used (a speaker's turn was complete) or given back. */
export function stoppedText(freeDebateUsed: boolean): string {
  return freeDebateUsed
    ? 'Debate stopped. It used one of your free debates.'
    : 'Debate stopped. Your free debate was given back.';
}

const initialState: EngineState = {
  runId: null,
  status: 'idle',
  stopping: false,
  freeDebateUsed: null,
  topic: null,
  models: null,
  moderator: false,
  stances: null,
  turns: [],
  current: null,
  awaiting: null,
  submitting: false,
  refusal: null,
  timedOutAfterMs: null,
  error: null,
  retry: null,
  saved: false,
  rematchOf: null,
  judge: null,
  verdict: null,
  seq: -1,
};

const StartDebateDocument = graphql(`
  mutation StartDebate($settings: DebateSettingsInput!) {
    startDebate(settings: $settings)
  }
`);

const StartRematchDocument = graphql(`
  mutation StartRematch($debateId: String!) {
    startRematch(debateId: $debateId)
  }
`);

/**
 * What the engine runs: a new debate with the page's settings, or the side-swapped rematch of
 * a saved debate (its topic and whether it had a moderator, for the page while it starts).
 */
export type RunRequest =
  | { readonly kind: 'new'; readonly settings: DebateSettingsInput }
  | {
      readonly kind: 'rematch';
      readonly debateId: string;
      readonly topic: string;
      readonly moderatorEnabled: boolean;
      /** The saved debate's stances, which its rematch keeps (each model changes side). */
      readonly stances: SideStances;
    };

/** Starts the run: its id, or why it did not start. */
async function startRun(
  request: RunRequest,
): Promise<{ runId: string } | { error: GraphqlFailure }> {
  if (request.kind === 'new') {
    const started = await graphqlRequest(StartDebateDocument, { settings: request.settings });
    return 'error' in started ? started : { runId: started.data.startDebate };
  }
  const started = await graphqlRequest(StartRematchDocument, { debateId: request.debateId });
  return 'error' in started ? started : { runId: started.data.startRematch };
}

/** Why a run did not start or finish; `canRetry` when its start never reached the gateway. */
export interface RunFailure {
  readonly message: string;
  readonly canRetry: boolean;
}

const DebateRunDocument = graphql(`
  subscription DebateRun($id: String!) {
    debateRun(id: $id) {
      type
      seq
      at
      topic
      firstStance
      secondStance
      firstModel {
        id
        label
        kind
      }
      secondModel {
        id
        label
        kind
      }
      model {
        id
        label
        kind
      }
      writtenBy {
        ...WrittenByFields
      }
      turn
      speaker
      round
      roundTitle
      text
      summary
      failed
      cutOff
      stage
      team {
        ...TeamNotesFields
      }
      judge {
        id
        label
        kind
      }
      verdict {
        ...DebateVerdictFields
      }
      message
      freeDebateUsed
      minWords
      maxWords
      deadline
      stopReason
    }
  }
`);

const StopDebateDocument = graphql(`
  mutation StopDebate($runId: String!) {
    stopDebate(runId: $runId) {
      stopped
      freeDebateUsed
    }
  }
`);

/**
 * Stops the run being shown (Stop): the run then ends with runStopped, through the
 * subscription. Answers once the free debate has been given back or settled.
 */
export const stopDebate = createAsyncThunk<boolean, string, { rejectValue: string }>(
  'engine/stopDebate',
  async (runId, { rejectWithValue }) => {
    const answer = await graphqlRequest(StopDebateDocument, { runId });
    return 'error' in answer
      ? rejectWithValue(answer.error.message)
      : answer.data.stopDebate.stopped;
  },
);

/**
 * Loads the subscription client's module ahead of Begin (the engine page, signed in): fetched
 * and compiled at the click instead, it held up the connection, and so a debate's first words,
 * by hundreds of milliseconds when many begin at once (docs/benchmarks.md, streaming).
 */
export function preloadSubscriptionClient(): void {
  void import('graphql-ws').catch(() => undefined);
}

/** A graphql-ws client to the gateway, connecting at once (the access token in connection_init). */
async function openSubscriptionClient() {
  const { createClient } = await import('graphql-ws');
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createClient({
    url: `${protocol}//${window.location.host}/graphql`,
    connectionParams: () => {
      const token = currentAccessToken();
      return token ? { authorization: `Bearer ${token}` } : {};
    },
    lazy: false,
    retryAttempts: 5,
  });
}

/** The gateway refused the subscription; `gone` when the run is not (or no longer) known. */
class RunGone extends Error {
  constructor(
    message: string,
    readonly gone: boolean,
  ) {
    super(message);
  }
}

/**
 * The gateway's refusal of a subscription: graphql-ws hands `sink.error` the `error` message's
 * payload, a plain array of GraphQL errors (an unknown run, someone else's: NOT_FOUND), where a
 * lost connection gives a close event or an Error. Null when `error` is not such a refusal.
 */
function refusalOf(error: unknown): RunGone | null {
  if (!Array.isArray(error)) return null;
  const errors: readonly unknown[] = error;
  const first: unknown = errors[0];
  if (typeof first !== 'object' || first === null) return null;
  const { message, extensions } = first as Record<string, unknown>;
  const code =
    typeof extensions === 'object' && extensions !== null
      ? (extensions as Record<string, unknown>)['code']
      : undefined;
  return new RunGone(typeof message === 'string' ? message : RUN_FAILED, code === 'NOT_FOUND');
}

/** The graphql-ws client following a run, if one is (a sign-out closes it). */
let following: { dispose(): unknown } | null = null;

/**
 * Forgets the run being followed and every turn's draft (a sign-out): the subscription is
 * closed, and nothing of it stays in the browser for the next user.
 */
export function forgetFollowedRun() {
  void following?.dispose();
  following = null;
  writeFollowedRun(localStore(), null);
  removeEveryTurnDraft();
}

/** How following a run ended: at its last event, or why not (`gone`: the run is not known). */
type Followed = { readonly ended: true } | { readonly ended: false; readonly gone: boolean };

/**
 * Follows run `runId` over `client` (graphql-ws, the access token in connection_init): every
 * event from the run's start, then the live ones until it ends. The run is kept in local storage
 * meanwhile, so that a reload comes back to it (followRun).
 */
async function follow(
  client: Awaited<ReturnType<typeof openSubscriptionClient>>,
  run: FollowedRun,
  dispatch: (action: PayloadAction<RunEvent>) => unknown,
): Promise<Followed> {
  writeFollowedRun(localStore(), run);
  following = client;
  const variables: DebateRunSubscriptionVariables = { id: run.runId };
  try {
    await new Promise<void>((resolve, reject) => {
      client.subscribe<DebateRunSubscription>(
        { query: DebateRunDocument.toString(), variables },
        {
          next: (result) => {
            const error = result.errors?.[0];
            if (error) {
              reject(new RunGone(error.message, error.extensions?.['code'] === 'NOT_FOUND'));
              return;
            }
            if (result.data) dispatch(engineSlice.actions.eventReceived(result.data.debateRun));
          },
          error: (error: unknown) =>
            reject(
              refusalOf(error) ??
                (error instanceof Error ? error : new Error('The connection was lost')),
            ),
          complete: () => resolve(),
        },
      );
    });
  } catch (error) {
    console.error('The debate run could not be followed', error);
    const gone = error instanceof RunGone && error.gone;
    // A run its instance no longer knows will never come back: a reload need not try again,
    // and nothing can be submitted to it.
    if (gone) {
      writeFollowedRun(localStore(), null);
      removeTurnDrafts(run.runId);
    }
    return { ended: false, gone };
  } finally {
    if (following === client) following = null;
    void client.dispose();
  }
  // Over: a reload shows it as the user's last debate, if it is saveable, and nothing is typed.
  writeFollowedRun(localStore(), null);
  removeTurnDrafts(run.runId);
  return { ended: true };
}

/**
 * Starts a debate and follows it to its end: the mutation takes a free debate, then the
 * subscription brings every event, from the start if the connection has to be made again.
 */
export const runDebate = createAsyncThunk<
  undefined,
  RunRequest,
  { rejectValue: RunFailure; state: { auth: AuthState } }
>('engine/runDebate', async (request, { dispatch, getState, rejectWithValue }) => {
  // The connection is opened while the debate is being started (only the engine subscribes:
  // the client loads with the first debate, not with every page), so that the run's first
  // words, which the model may write at once, find the subscription ready.
  const connecting = openSubscriptionClient();
  const userId = getState().auth.user?.uid ?? '';
  const started = await startRun(request);
  // Signed out meanwhile: the page was reset, and the run is not the next user's to follow.
  if ('error' in started || getState().auth.user?.uid !== userId) {
    void connecting.then((client) => client.dispose()).catch(() => undefined);
    if (!('error' in started)) return undefined;
    return rejectWithValue({
      message: started.error.message,
      canRetry: isTransportFailure(started.error),
    });
  }
  const { runId } = started;
  dispatch(engineSlice.actions.runAccepted(runId));
  const followed = await follow(
    await connecting,
    {
      userId,
      runId,
      moderatorEnabled:
        request.kind === 'new' ? request.settings.moderatorEnabled : request.moderatorEnabled,
      rematchOf: request.kind === 'rematch' ? request.debateId : null,
    },
    dispatch,
  );
  return followed.ended ? undefined : rejectWithValue({ message: RUN_FAILED, canRetry: false });
});

/**
 * Follows again the run that was going when the page was left (a reload, a closed tab): its
 * events from the start rebuild the page, a person's turn awaiting its text among them.
 * Rejected with `gone` when the run is no longer known (the page then shows what it would
 * without it).
 */
export const followRun = createAsyncThunk<undefined, FollowedRun, { rejectValue: Followed }>(
  'engine/followRun',
  async (run, { dispatch, rejectWithValue }) => {
    const followed = await follow(await openSubscriptionClient(), run, dispatch);
    return followed.ended ? undefined : rejectWithValue(followed);
  },
);

const SubmitTurnDocument = graphql(`
  mutation SubmitTurn($runId: String!, $turn: Int!, $text: String!) {
    submitTurn(runId: $runId, turn: $turn, text: $text)
  }
`);

/**
 * Sends the person's turn (Submit turn). Accepted, its draft is forgotten and the run goes on
 * (turnCompleted comes through the subscription); refused, the reason is shown and nothing
 * changes, the draft kept.
 */
export const submitTurn = createAsyncThunk<
  undefined,
  { readonly runId: string; readonly turn: number; readonly text: string },
  { rejectValue: string }
>('engine/submitTurn', async (request, { rejectWithValue }) => {
  const answer = await graphqlRequest(SubmitTurnDocument, request);
  if ('error' in answer) return rejectWithValue(answer.error.message);
  removeTurnDrafts(request.runId);
  return undefined;
});

/** A turnStage event's stage; null for anything the gateway sends that is not one. */
function turnStageOf(stage: string | null | undefined): TurnStage | null {
  return turnStages.find((known) => known === stage) ?? null;
}

function patchTurn(turns: readonly Turn[], index: number, patch: (turn: Turn) => Turn): Turn[] {
  return turns.map((turn) => (turn.turn === index ? patch(turn) : turn));
}

/** The subscription ended without the run's last event: the run is lost to us. */
function endedUnseen(state: EngineState): EngineState {
  return state.status === 'running'
    ? { ...state, status: 'failed', current: null, awaiting: null, error: RUN_FAILED }
    : state;
}

/** A turn that has begun (a model's, or one awaiting its person): where it stands, no words yet. */
function turnBegun(
  event: RunEvent,
  model: Turn['model'],
): { turn: Turn; position: Omit<CurrentTurn, 'stage'> } {
  const position = {
    speaker: event.speaker ?? '',
    round: event.round ?? 0,
    roundTitle: event.roundTitle ?? '',
  };
  const turn: Turn = {
    turn: event.turn ?? 0,
    ...position,
    text: '',
    summary: '',
    complete: false,
    failed: false,
    cutOff: false,
    model,
    writtenBy: null,
    team: null,
  };
  return { turn, position };
}

export const engineSlice = createSlice({
  name: 'engine',
  initialState: initialState as EngineState,
  reducers: {
    runAccepted(state, action: PayloadAction<string>): EngineState {
      return { ...state, runId: action.payload };
    },
    /** The run was saved to the history: beginning another loses nothing. */
    runSaved(state, action: PayloadAction<string>): EngineState {
      return state.runId === action.payload ? { ...state, saved: true } : state;
    },
    /**
     * The user's last debate, not saved yet, shown again as it ended (after a reload, a trip
     * away, a sign-in): its turns and scorecard, from the debates service.
     */
    runRestored(_state, action: PayloadAction<UnsavedRun>): EngineState {
      const run = action.payload;
      const modelOf = (writtenBy: WrittenBy | null | undefined): RunModel | null =>
        writtenBy ? { id: writtenBy.modelId, label: writtenBy.label, kind: writtenBy.kind } : null;
      const first = modelOf(run.model1.writtenBy);
      const second = modelOf(run.model2.writtenBy);
      return {
        ...initialState,
        runId: run.runId,
        // A stopped run is kept only once it used the free debate.
        status: run.stopped ? 'stopped' : 'done',
        freeDebateUsed: run.stopped ? true : null,
        topic: run.topic,
        models: first && second ? { first, second } : null,
        moderator: run.moderatorEnabled ?? false,
        stances: { first: run.model1.stance, second: run.model2.stance },
        turns: run.rounds.map((round, index) => ({
          turn: index,
          speaker: round.speaker,
          round: round.round,
          roundTitle: roundTitles[round.round - 1] ?? '',
          text: round.text,
          summary: round.summary,
          complete: true,
          failed: (round.writtenBy?.failedTurns ?? 0) > 0,
          // A stopped debate's last round may have been cut off: its summary says so.
          cutOff: false,
          model: null,
          team: round.team ?? null,
          writtenBy: round.writtenBy ?? null,
        })),
        rematchOf: run.rematchOf ?? null,
        judge: modelOf(run.verdict?.judgedBy),
        verdict: run.verdict ?? null,
      };
    },
    eventReceived(state, action: PayloadAction<RunEvent>): EngineState {
      const event = action.payload;
      if (event.seq <= state.seq) return state;
      const next = { ...state, seq: event.seq };
      switch (event.type) {
        case 'runStarted':
          return {
            ...next,
            // Said again, for a run followed after a reload (the page had not started it).
            topic: event.topic ?? state.topic,
            stances:
              typeof event.firstStance === 'number' && typeof event.secondStance === 'number'
                ? { first: event.firstStance, second: event.secondStance }
                : state.stances,
            models:
              event.firstModel && event.secondModel
                ? { first: event.firstModel, second: event.secondModel }
                : null,
          };
        case 'turnStarted': {
          const { turn, position } = turnBegun(event, event.model);
          return { ...next, current: { ...position, stage: null }, turns: [...state.turns, turn] };
        }
        case 'turnAwaiting': {
          // The person's turn: an editor in its place until their text comes as turnCompleted.
          const deadline = Date.parse(event.deadline ?? '');
          const person =
            event.speaker === speakerNames[0] ? state.models?.first : state.models?.second;
          const { turn, position } = turnBegun(event, person ?? null);
          return {
            ...next,
            current: { ...position, stage: null },
            turns: [...state.turns, turn],
            awaiting: {
              turn: turn.turn,
              ...position,
              minWords: event.minWords ?? 0,
              maxWords: event.maxWords ?? Number.MAX_SAFE_INTEGER,
              deadline,
              waitMs: deadline - event.at,
            },
            refusal: null,
          };
        }
        case 'turnStage': {
          const stage = turnStageOf(event.stage);
          return {
            ...next,
            current: state.current && { ...state.current, stage },
            // The revision is written from its start again: it replaces the draft's words.
            turns:
              stage === 'revising'
                ? patchTurn(state.turns, event.turn ?? -1, (turn) => ({ ...turn, text: '' }))
                : state.turns,
          };
        }
        case 'textDelta':
          return {
            ...next,
            turns: patchTurn(state.turns, event.turn ?? -1, (turn) => ({
              ...turn,
              text: turn.text + (event.text ?? ''),
            })),
          };
        case 'turnCompleted':
          return {
            ...next,
            ...(state.awaiting?.turn === event.turn
              ? { awaiting: null, submitting: false, refusal: null }
              : {}),
            turns: patchTurn(state.turns, event.turn ?? -1, (turn) => ({
              ...turn,
              text: event.text ?? turn.text,
              summary: event.summary ?? '',
              complete: true,
              failed: event.failed ?? false,
              cutOff: event.cutOff ?? false,
              writtenBy: event.writtenBy,
              team: event.team ?? null,
            })),
          };
        case 'judgingStarted':
          // The last turn is written: nobody is speaking while the judge reads.
          return { ...next, current: null, judge: event.judge };
        case 'verdictReady':
          return { ...next, verdict: event.verdict };
        case 'runCompleted':
          // A Stop that failed said so while the run went on; it has ended now.
          return { ...next, status: 'done', current: null, awaiting: null, error: null };
        case 'runFailed':
          return {
            ...next,
            status: 'failed',
            current: null,
            awaiting: null,
            error: event.message ?? RUN_FAILED,
          };
        case 'runStopped':
          return {
            ...next,
            status: 'stopped',
            stopping: false,
            current: null,
            awaiting: null,
            submitting: false,
            refusal: null,
            timedOutAfterMs: event.stopReason === 'timedOut' ? (state.awaiting?.waitMs ?? 0) : null,
            error: null,
            // A turn stopped before its first word is not kept (one with words came back as
            // turnCompleted, cut off): the page shows what the saved debate will have.
            turns: state.turns.filter((turn) => turn.complete),
            freeDebateUsed: event.freeDebateUsed ?? false,
          };
      }
      return next;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(runDebate.pending, (_state, { meta: { arg } }) => {
        const { topic, moderatorEnabled } = arg.kind === 'new' ? arg.settings : arg;
        return {
          ...initialState,
          status: 'running',
          topic: topic.trim(),
          moderator: moderatorEnabled,
          stances:
            arg.kind === 'new'
              ? { first: arg.settings.first.stance, second: arg.settings.second.stance }
              : arg.stances,
          rematchOf: arg.kind === 'rematch' ? arg.debateId : null,
        };
      })
      .addCase(followRun.pending, (_state, { meta: { arg } }) => ({
        ...initialState,
        status: 'running',
        runId: arg.runId,
        moderator: arg.moderatorEnabled,
        rematchOf: arg.rematchOf,
      }))
      // Not known any more (its instance forgot it, or restarted): the page is as without it.
      .addCase(followRun.rejected, (state, action) =>
        action.payload?.ended === false && action.payload.gone
          ? initialState
          : { ...state, status: 'failed', current: null, awaiting: null, error: RUN_FAILED },
      )
      .addCase(submitTurn.pending, (state) => ({ ...state, submitting: true, refusal: null }))
      // Accepted: sent until the run says the turn is complete (turnCompleted, which may have
      // come first over the subscription, and then ended the wait).
      .addCase(submitTurn.fulfilled, (state, { meta: { arg } }) => ({
        ...state,
        submitting: state.awaiting?.turn === arg.turn,
      }))
      .addCase(submitTurn.rejected, (state, action) => ({
        ...state,
        submitting: false,
        refusal: action.payload ?? action.error.message ?? RUN_FAILED,
      }))
      .addCase(runDebate.fulfilled, endedUnseen)
      .addCase(followRun.fulfilled, endedUnseen)
      .addCase(runDebate.rejected, (state, action) => ({
        ...state,
        status: 'failed',
        current: null,
        awaiting: null,
        error: action.payload?.message ?? RUN_FAILED,
        retry: action.payload?.canRetry ? action.meta.arg : null,
      }))
      // The next user of the browser sees nothing of this one's run (forgetFollowedRun closes it).
      .addCase(signOut.pending, () => initialState)
      .addCase(stopDebate.pending, (state, { meta: { arg } }) =>
        state.runId === arg && state.status === 'running' ? { ...state, stopping: true } : state,
      )
      // Stopped, the run says so itself (runStopped), which may come after this answer: Stop
      // stays pressed until then. Ended already, it said how it ended.
      .addCase(stopDebate.fulfilled, (state, { payload: stopped }) =>
        stopped && state.status === 'running' ? state : { ...state, stopping: false },
      )
      .addCase(stopDebate.rejected, (state, action) =>
        state.runId === action.meta.arg && state.status === 'running'
          ? { ...state, stopping: false, error: stopFailedText(action.payload) }
          : state,
      );
  },
});

export const { eventReceived, runRestored, runSaved } = engineSlice.actions;
