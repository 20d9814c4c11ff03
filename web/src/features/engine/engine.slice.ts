import { roundTitles, turnStages } from '@debate/contracts/constants';
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
import type { WrittenBy } from '../debates/provenance';
import type { SideStances } from '../debates/sides';
import type { TeamNotesFields } from '../debates/team-notes';
import type { Verdict } from '../debates/verdict';
import type { RunModel } from './models';

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

/**
 * Starts a debate and follows it to its end: the mutation takes a free debate, then the
 * subscription (graphql-ws, the access token in connection_init) brings every event, from the
 * start if the connection has to be made again.
 */
export const runDebate = createAsyncThunk<undefined, RunRequest, { rejectValue: RunFailure }>(
  'engine/runDebate',
  async (request, { dispatch, rejectWithValue }) => {
    // The connection is opened while the debate is being started (only the engine subscribes:
    // the client loads with the first debate, not with every page), so that the run's first
    // words, which the model may write at once, find the subscription ready.
    const connecting = openSubscriptionClient();
    const started = await startRun(request);
    if ('error' in started) {
      void connecting.then((client) => client.dispose()).catch(() => undefined);
      return rejectWithValue({
        message: started.error.message,
        canRetry: isTransportFailure(started.error),
      });
    }
    const { runId } = started;
    dispatch(engineSlice.actions.runAccepted(runId));
    const client = await connecting;
    const variables: DebateRunSubscriptionVariables = { id: runId };
    try {
      await new Promise<void>((resolve, reject) => {
        client.subscribe<DebateRunSubscription>(
          { query: DebateRunDocument.toString(), variables },
          {
            next: (result) => {
              if (result.errors?.[0]) {
                reject(new Error(result.errors[0].message));
                return;
              }
              if (result.data) dispatch(engineSlice.actions.eventReceived(result.data.debateRun));
            },
            error: (error: unknown) =>
              reject(error instanceof Error ? error : new Error('The connection was lost')),
            complete: () => resolve(),
          },
        );
      });
    } catch (error) {
      console.error('The debate run could not be followed', error);
      return rejectWithValue({ message: RUN_FAILED, canRetry: false });
    } finally {
      void client.dispose();
    }
    return undefined;
  },
);

/** A turnStage event's stage; null for anything the gateway sends that is not one. */
function turnStageOf(stage: string | null | undefined): TurnStage | null {
  return turnStages.find((known) => known === stage) ?? null;
}

function patchTurn(turns: readonly Turn[], index: number, patch: (turn: Turn) => Turn): Turn[] {
  return turns.map((turn) => (turn.turn === index ? patch(turn) : turn));
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
            models:
              event.firstModel && event.secondModel
                ? { first: event.firstModel, second: event.secondModel }
                : null,
          };
        case 'turnStarted': {
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
            model: event.model,
            writtenBy: null,
            team: null,
          };
          return { ...next, current: { ...position, stage: null }, turns: [...state.turns, turn] };
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
          return { ...next, status: 'done', current: null, error: null };
        case 'runFailed':
          return { ...next, status: 'failed', current: null, error: event.message ?? RUN_FAILED };
        case 'runStopped':
          return {
            ...next,
            status: 'stopped',
            stopping: false,
            current: null,
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
      .addCase(runDebate.fulfilled, (state) =>
        // The subscription ended without the run's last event: the run is lost to us.
        state.status === 'running'
          ? { ...state, status: 'failed', current: null, error: RUN_FAILED }
          : state,
      )
      .addCase(runDebate.rejected, (state, action) => ({
        ...state,
        status: 'failed',
        current: null,
        error: action.payload?.message ?? RUN_FAILED,
        retry: action.payload?.canRetry ? action.meta.arg : null,
      }))
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
