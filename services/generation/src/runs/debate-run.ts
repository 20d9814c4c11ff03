import {
  countWords,
  type DebateSettings,
  type generationContracts,
  generationTexts,
  PERSON_MODEL_ID,
  PERSON_TURN_WORDS,
  type ResponseOf,
  roundTitles,
  type RunEvent,
  type RunStopReason,
  type SpeakerModelRef,
  type SpeakerSettings,
  type TurnSpeaker,
  type Verdict,
  type WrittenBy,
} from '@debate/contracts';
import { Observable } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JudgedTurn } from '../judging/judge.js';
import type { Models } from '../models/models.js';
import { firstSentence } from '../speakers/offline.speaker.js';
import type { SpokenTurn, TurnRequest } from '../speakers/speaker.js';

type Unsequenced<E> = E extends RunEvent ? Omit<E, 'seq' | 'at'> : never;

interface PlannedTurn {
  readonly speaker: TurnSpeaker;
  readonly round: number;
  readonly roundTitle: string;
}

/**
 * The moderator's settings: neutral, with the first speaker's model (the second's when the
 * first is a person's side: a model speaks for the moderator).
 */
function moderator(settings: DebateSettings): SpeakerSettings {
  return {
    model: settings.person?.speaker === 'first' ? settings.second.model : settings.first.model,
    stance: 0,
    rhetoricStyle: 'formal',
    personality: 'a neutral moderator',
  };
}

/** The turns of a debate in order: both speakers for rounds 1 to 3, framed by a moderator. */
function planTurns(moderatorEnabled: boolean): PlannedTurn[] {
  const turns: PlannedTurn[] = [];
  if (moderatorEnabled) turns.push({ speaker: 'Moderator', round: 0, roundTitle: 'Opening' });
  roundTitles.forEach((roundTitle, index) => {
    turns.push({ speaker: 'First Speaker', round: index + 1, roundTitle });
    turns.push({ speaker: 'Second Speaker', round: index + 1, roundTitle });
  });
  if (moderatorEnabled) turns.push({ speaker: 'Moderator', round: 4, roundTitle: 'Closing' });
  return turns;
}

/** The events that end a run: nothing is reported after one. */
type EndEvent = Extract<RunEvent, { type: 'runCompleted' | 'runFailed' | 'runStopped' }>;

function isEnd(event: RunEvent): event is EndEvent {
  return event.type === 'runCompleted' || event.type === 'runFailed' || event.type === 'runStopped';
}

/**
 * Whether a run's turns are worth keeping: a speaker's turn was written whole (not failed, not
 * cut off). A run stopped before that cannot be saved.
 */
function hasCompleteSpeakerTurn(events: readonly RunEvent[]): boolean {
  return events.some(
    (event) =>
      event.type === 'turnCompleted' &&
      event.speaker !== 'Moderator' &&
      !event.failed &&
      !event.cutOff,
  );
}

/**
 * Whether a stopped run cost its free debate: a speaker's model wrote words of its argument (a
 * turn cut off counts: they were paid for and shown). Stopped before that (during the
 * moderator's opening, or while the first speaker's model had said nothing yet), it is given
 * back. Read once the turn under way was folded into its turnCompleted (endStopped).
 */
function spokeAnyArgument(events: readonly RunEvent[]): boolean {
  return events.some(
    (event) =>
      event.type === 'turnCompleted' &&
      event.speaker !== 'Moderator' &&
      !event.failed &&
      event.text.trim() !== '',
  );
}

type SubmitReply = ResponseOf<typeof generationContracts.submitTurn>;

/** A person's turn the run waits for: its number, its round's limits, and who takes the text. */
interface AwaitedTurn {
  readonly turn: number;
  readonly roundTitle: string;
  readonly minWords: number;
  readonly maxWords: number;
  readonly take: (text: string) => void;
}

/**
 * One debate being generated: it records what it reports for its whole life, so that a watcher
 * who arrives (or comes back) mid-run gets the debate from the start, then the rest live. A
 * completed turn's text pieces are folded into its turnCompleted event.
 */
export class DebateRun {
  private events: RunEvent[] = [];
  private nextSeq = 0;
  private readonly watchers = new Set<(event: RunEvent) => void>();
  private finished = false;
  private stopRequested = false;
  private stopReason: RunStopReason = 'owner';
  private awaited: AwaitedTurn | undefined;
  private resolveEnd: (event: EndEvent) => void = () => undefined;
  /** Its last event, once it has ended. */
  readonly end = new Promise<EndEvent>((resolve) => {
    this.resolveEnd = resolve;
  });
  readonly abort = new AbortController();

  constructor(
    readonly runId: string,
    readonly userId: string,
    /** What the run was started with (kept so the debate can be saved afterwards). */
    readonly settings?: DebateSettings,
    /** The saved debate it is the side-swapped rematch of. */
    readonly rematchOf: string | null = null,
  ) {}

  /** Whether the run ended with every turn reported (runCompleted). */
  get completed(): boolean {
    return this.events.at(-1)?.type === 'runCompleted';
  }

  /** Whether its owner stopped it (runStopped). */
  get stopped(): boolean {
    return this.events.at(-1)?.type === 'runStopped';
  }

  /** Whether its owner asked it to stop (it may not have ended yet). */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Whether it cost its free debate: it completed, or was stopped once a speaker had spoken. */
  get costsFreeDebate(): boolean {
    const last = this.events.at(-1);
    return last?.type === 'runCompleted' || (last?.type === 'runStopped' && last.freeDebateUsed);
  }

  /** Whether it can be saved: it completed, or was stopped after a complete speaker's turn. */
  get saveable(): boolean {
    return this.completed || (this.stopped && hasCompleteSpeakerTurn(this.events));
  }

  /** Why it was asked to stop: its owner's Stop, or its person's turn waited too long. */
  get stoppedFor(): RunStopReason {
    return this.stopReason;
  }

  /**
   * Asks the run to stop: the model call under way (or the wait for its person's turn) is
   * aborted and generateDebate ends it with runStopped. False when it had ended already, or was
   * asked already (nothing changes).
   */
  stop(reason: RunStopReason = 'owner'): boolean {
    if (this.finished || this.stopRequested) return false;
    this.stopRequested = true;
    this.stopReason = reason;
    this.abort.abort();
    return true;
  }

  /**
   * Waits for the person's text of `turn` (generateDebate, after its turnAwaiting): resolves
   * with the accepted text; rejects when the run is stopped, or when `timeoutMs` passes first
   * (the run is then stopped as 'timedOut').
   */
  awaitTurn(
    turn: number,
    roundTitle: string,
    limits: { readonly min: number; readonly max: number },
    timeoutMs: number,
  ): Promise<string> {
    const { signal } = this.abort;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => this.stop('timedOut'), timeoutMs);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', aborted);
        this.awaited = undefined;
      };
      const aborted = () => {
        done();
        reject(signal.reason as Error);
      };
      if (signal.aborted) {
        aborted();
        return;
      }
      signal.addEventListener('abort', aborted, { once: true });
      this.awaited = {
        turn,
        roundTitle,
        minWords: limits.min,
        maxWords: limits.max,
        take: (text) => {
          done();
          resolve(text);
        },
      };
    });
  }

  /**
   * The person's text for the turn the run awaits: refused (and nothing changes) when it awaits
   * no turn of that number, or the words are outside the round's limits; accepted, the run
   * completes the turn and goes on.
   */
  submit(turn: number, text: string): SubmitReply {
    const awaited = this.awaited;
    if (!awaited || awaited.turn !== turn || this.stopRequested) {
      return { accepted: false, reason: 'not_your_turn', message: generationTexts.notYourTurn };
    }
    const words = countWords(text);
    if (words < awaited.minWords) {
      const message = generationTexts.turnTooShort(awaited.minWords, awaited.roundTitle, words);
      return { accepted: false, reason: 'too_short', message };
    }
    if (words > awaited.maxWords) {
      const message = generationTexts.turnTooLong(awaited.maxWords, awaited.roundTitle, words);
      return { accepted: false, reason: 'too_long', message };
    }
    awaited.take(text.trim());
    return { accepted: true };
  }

  get history(): readonly RunEvent[] {
    return this.events;
  }

  /** The judges' scorecard, once it is ready. */
  get verdict(): Verdict | null {
    const ready = this.events.findLast((event) => event.type === 'verdictReady');
    return ready?.type === 'verdictReady' ? ready.verdict : null;
  }

  /** The tokens its models counted so far, over every completed turn. */
  tokens(): { tokensIn: number; tokensOut: number } {
    let tokensIn = 0;
    let tokensOut = 0;
    for (const event of this.events) {
      if (event.type !== 'turnCompleted') continue;
      tokensIn += event.writtenBy.tokensIn ?? 0;
      tokensOut += event.writtenBy.tokensOut ?? 0;
    }
    return { tokensIn, tokensOut };
  }

  emit(event: Unsequenced<RunEvent>): void {
    if (this.finished) return;
    const sequenced = { ...event, seq: this.nextSeq, at: Date.now() } as RunEvent;
    this.nextSeq += 1;
    this.events.push(sequenced);
    if (sequenced.type === 'turnCompleted') {
      // The completed turn carries its whole text and how it was made: its pieces and stages
      // need not be kept for later watchers (who skip from turnStarted to turnCompleted; seq
      // keeps counting).
      const { turn } = sequenced;
      this.events = this.events.filter(
        (kept) => (kept.type !== 'textDelta' && kept.type !== 'turnStage') || kept.turn !== turn,
      );
    }
    if (isEnd(sequenced)) this.finished = true;
    for (const watcher of this.watchers) watcher(sequenced);
    if (isEnd(sequenced)) {
      this.watchers.clear();
      this.resolveEnd(sequenced);
    }
  }

  /** Everything so far, then each new event, completing after the last. */
  watch(): Observable<RunEvent> {
    return new Observable<RunEvent>((subscriber) => {
      for (const event of this.events) subscriber.next(event);
      if (this.finished) {
        subscriber.complete();
        return undefined;
      }
      const watcher = (event: RunEvent) => {
        subscriber.next(event);
        if (isEnd(event)) subscriber.complete();
      };
      this.watchers.add(watcher);
      return () => this.watchers.delete(watcher);
    });
  }
}

export interface RunOptions {
  /** The pause between turns (the spec's 1 s). */
  readonly pauseMs: number;
  /** An example debate: the offline speaker writes each turn at once, the offline judge judges. */
  readonly example?: boolean;
  /** How long a person's turn is awaited before the run ends (PERSON_TURN_TIMEOUT_MS). */
  readonly personTurnTimeoutMs?: number;
}

/** PERSON_TURN_TIMEOUT_MS's default: a person has a quarter of an hour for a turn. */
export const DEFAULT_PERSON_TURN_TIMEOUT_MS = 15 * 60 * 1000;

/** The turn being written: what it has streamed so far, and since when. */
interface TurnInProgress {
  readonly turn: number;
  readonly planned: PlannedTurn;
  readonly model: SpeakerModelRef;
  readonly startedAt: number;
  firstTokenMs: number | null;
  text: string;
}

/**
 * Ends a run its owner stopped (or its person left waiting): the turn being written is kept
 * as far as it was streamed, marked as cut off (nothing streamed: no turn); then runStopped,
 * saying whether the run cost its free debate (a speaker's model had written).
 */
function endStopped(run: DebateRun, cut: TurnInProgress | undefined): 'stopped' {
  if (cut && cut.text.trim() !== '') {
    run.emit({
      type: 'turnCompleted',
      turn: cut.turn,
      ...cut.planned,
      text: cut.text,
      summary: generationTexts.turnCutOff,
      failed: false,
      cutOff: true,
      writtenBy: {
        kind: cut.model.kind,
        modelId: cut.model.id,
        label: cut.model.label,
        serverModel: null,
        tokensIn: null,
        tokensOut: null,
        firstTokenMs: cut.firstTokenMs,
        totalMs: Math.round(performance.now() - cut.startedAt),
        turns: 1,
        failedTurns: 0,
      },
      team: null,
    });
  }
  run.emit({
    type: 'runStopped',
    freeDebateUsed: spokeAnyArgument(run.history),
    reason: run.stoppedFor,
  });
  return 'stopped';
}

/**
 * Generates the debate: each turn sees every earlier one and is written by its speaker's model
 * of the catalogue (the moderator's by the first speaker's); a turn whose model fails gets the
 * spec's error texts and the debate goes on. A person's side (settings.person) writes its own
 * turns: the run reports turnAwaiting and waits for DebateRun.submit, until the timeout. Resolves 'completed', or 'failed' when no turn
 * could be written at all (or the run broke), after reporting it; 'stopped' when its owner
 * stopped it (DebateRun.stop) or its person's turn timed out, the turn under way cut where it
 * was and no judging. The models must be in the catalogue (the start checks them).
 */
export async function generateDebate(
  run: DebateRun,
  settings: DebateSettings,
  models: Models,
  options: RunOptions,
): Promise<'completed' | 'failed' | 'stopped'> {
  const { signal } = run.abort;
  const { person } = settings;
  // The person's side is no model of the catalogue: its turns are written by the person's name.
  const personRef: SpeakerModelRef | undefined = person && {
    id: PERSON_MODEL_ID,
    label: person.displayName,
    kind: 'person',
  };
  const personSpeaker: TurnSpeaker | undefined =
    person && (person.speaker === 'first' ? 'First Speaker' : 'Second Speaker');
  const refOf = (modelId: string) => {
    if (personRef && modelId === PERSON_MODEL_ID) return personRef;
    const ref = models.ref(modelId);
    if (!ref) throw new Error(`No model ${modelId} in the catalogue`);
    return ref;
  };
  run.emit({
    type: 'runStarted',
    runId: run.runId,
    topic: settings.topic,
    firstModel: refOf(settings.first.model),
    secondModel: refOf(settings.second.model),
    firstStance: settings.first.stance,
    secondStance: settings.second.stance,
  });
  const earlier: SpokenTurn[] = [];
  let speakerTurnsFailed = 0;
  let written = 0;
  let inProgress: TurnInProgress | undefined;
  try {
    for (const [turn, planned] of planTurns(settings.moderatorEnabled).entries()) {
      // The pause paces the models' turns for a reader; a person who has just submitted is
      // answered at once (nothing of theirs to read, and the answer's wait is what they feel).
      const afterPerson = personSpeaker !== undefined && earlier.at(-1)?.speaker === personSpeaker;
      if (turn > 0 && options.pauseMs > 0 && !afterPerson) {
        await sleep(options.pauseMs, undefined, { signal });
      }
      const request: TurnRequest = {
        topic: settings.topic,
        debateFormat: settings.debateFormat,
        moderatorEnabled: settings.moderatorEnabled,
        speaker: planned.speaker,
        settings:
          planned.speaker === 'First Speaker'
            ? settings.first
            : planned.speaker === 'Second Speaker'
              ? settings.second
              : moderator(settings),
        round: planned.round,
        roundTitle: planned.roundTitle,
        earlier: [...earlier],
        opponentIsPerson: personSpeaker !== undefined && planned.speaker !== personSpeaker,
      };
      const model = refOf(request.settings.model);
      if (personRef && planned.speaker === personSpeaker) {
        const spoken = await personTurn(run, turn, planned, personRef, options);
        earlier.push({ ...planned, ...spoken.turn });
        written += 1;
        run.emit({
          type: 'turnCompleted',
          turn,
          ...planned,
          ...spoken.turn,
          failed: false,
          cutOff: false,
          writtenBy: spoken.writtenBy,
          team: null,
        });
        continue;
      }
      run.emit({ type: 'turnStarted', turn, ...planned, model });
      const writing: TurnInProgress = {
        turn,
        planned,
        model,
        startedAt: performance.now(),
        firstTokenMs: null,
        text: '',
      };
      inProgress = writing;
      for await (const outcome of models.write(
        request.settings.model,
        request,
        signal,
        options.example,
      )) {
        if (outcome.type === 'stage') {
          // A team's revision is written from its start again.
          if (outcome.stage === 'revising') writing.text = '';
          run.emit({ type: 'turnStage', turn, stage: outcome.stage });
          continue;
        }
        if (outcome.type === 'delta') {
          writing.firstTokenMs ??= Math.round(performance.now() - writing.startedAt);
          writing.text += outcome.text;
          run.emit({ type: 'textDelta', turn, text: outcome.text });
          continue;
        }
        inProgress = undefined;
        const failed = outcome.turn === undefined;
        if (!failed) written += 1;
        else if (planned.speaker !== 'Moderator') speakerTurnsFailed += 1;
        const spoken = outcome.turn ?? {
          text: generationTexts.turnFailedText,
          summary: generationTexts.turnFailedSummary,
        };
        earlier.push({ ...planned, ...spoken });
        run.emit({
          type: 'turnCompleted',
          turn,
          ...planned,
          ...spoken,
          failed,
          cutOff: false,
          writtenBy: outcome.writtenBy,
          team: failed ? null : outcome.team,
        });
      }
    }
  } catch {
    if (run.stopping) return endStopped(run, inProgress);
    run.emit({ type: 'runFailed', message: generationTexts.runFailed });
    return 'failed';
  }
  if (written === 0) {
    run.emit({ type: 'runFailed', message: generationTexts.runFailed });
    return 'failed';
  }
  // A speaker whose turn could not be written would be judged on the error text: not judged.
  if (speakerTurnsFailed > 0) {
    run.emit({ type: 'runCompleted' });
    return 'completed';
  }
  try {
    // The judges read the speakers' rounds (not the moderator's) once the Summary is spoken.
    // A person is no model: the judge is chosen as though only the model side spoke.
    const spokeBy = [settings.first.model, settings.second.model].filter(
      (model) => model !== PERSON_MODEL_ID,
    );
    const judge = models.judgeFor(spokeBy, options.example);
    run.emit({ type: 'judgingStarted', judge: judge.ref });
    const judged: JudgedTurn[] = earlier.flatMap((turn) =>
      turn.speaker === 'Moderator'
        ? []
        : [
            {
              speaker: turn.speaker,
              round: turn.round,
              roundTitle: turn.roundTitle,
              text: turn.text,
            },
          ],
    );
    // The panel (JUDGE_PANEL_SIZE) reads it at the same time; the scorecard is the judge's.
    const panel = models.panelFor(judge, options.example);
    const verdict = await models.verdict(judge, panel, settings.topic, judged, signal);
    // Stopped while judging: the scorecard is not wanted, even if the judge finished it.
    if (run.stopping) return endStopped(run, undefined);
    if (verdict) run.emit({ type: 'verdictReady', verdict });
  } catch {
    if (run.stopping) return endStopped(run, undefined);
    run.emit({ type: 'runFailed', message: generationTexts.runFailed });
    return 'failed';
  }
  run.emit({ type: 'runCompleted' });
  return 'completed';
}

/**
 * A person's turn: reports turnAwaiting with the round's limits and the deadline, then waits
 * for the accepted text (DebateRun.submit). Its summary is the text's first sentence, as the
 * offline speaker's; its provenance, the person's name and how long they took. A Stop or the
 * timeout rejects (generateDebate then ends the run as stopped; nothing of the turn is kept).
 */
async function personTurn(
  run: DebateRun,
  turn: number,
  planned: PlannedTurn,
  person: SpeakerModelRef,
  options: RunOptions,
): Promise<{ turn: { text: string; summary: string }; writtenBy: WrittenBy }> {
  const limits = PERSON_TURN_WORDS[planned.round as 1 | 2 | 3];
  const timeoutMs = options.personTurnTimeoutMs ?? DEFAULT_PERSON_TURN_TIMEOUT_MS;
  run.emit({
    type: 'turnAwaiting',
    turn,
    ...planned,
    minWords: limits.min,
    maxWords: limits.max,
    deadline: new Date(Date.now() + timeoutMs).toISOString(),
  });
  const startedAt = performance.now();
  const text = await run.awaitTurn(turn, planned.roundTitle, limits, timeoutMs);
  return {
    turn: { text, summary: firstSentence(text) },
    writtenBy: {
      kind: 'person',
      modelId: person.id,
      label: person.label,
      serverModel: null,
      tokensIn: null,
      tokensOut: null,
      firstTokenMs: null,
      totalMs: Math.round(performance.now() - startedAt),
      turns: 1,
      failedTurns: 0,
    },
  };
}
