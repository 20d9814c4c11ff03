import {
  type DebateSettings,
  generationTexts,
  roundTitles,
  type RunEvent,
  type SpeakerSettings,
  type TurnSpeaker,
  type Verdict,
} from '@debate/contracts';
import { Observable } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JudgedTurn } from '../judging/judge.js';
import type { Models } from '../models/models.js';
import type { SpokenTurn, TurnRequest } from '../speakers/speaker.js';

type Unsequenced<E> = E extends RunEvent ? Omit<E, 'seq' | 'at'> : never;

interface PlannedTurn {
  readonly speaker: TurnSpeaker;
  readonly round: number;
  readonly roundTitle: string;
}

/** The moderator's settings: neutral, with the first speaker's model. */
function moderator(first: SpeakerSettings): SpeakerSettings {
  return {
    model: first.model,
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
    if (sequenced.type === 'runCompleted' || sequenced.type === 'runFailed') this.finished = true;
    for (const watcher of this.watchers) watcher(sequenced);
    if (this.finished) this.watchers.clear();
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
        if (event.type === 'runCompleted' || event.type === 'runFailed') subscriber.complete();
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
}

/**
 * Generates the debate: each turn sees every earlier one and is written by its speaker's model
 * of the catalogue (the moderator's by the first speaker's); a turn whose model fails gets the
 * spec's error texts and the debate goes on. Resolves 'completed', or 'failed' when no turn
 * could be written at all (or the run broke), after reporting it. The models must be in the
 * catalogue (the start checks them).
 */
export async function generateDebate(
  run: DebateRun,
  settings: DebateSettings,
  models: Models,
  options: RunOptions,
): Promise<'completed' | 'failed'> {
  const { signal } = run.abort;
  const refOf = (modelId: string) => {
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
  try {
    for (const [turn, planned] of planTurns(settings.moderatorEnabled).entries()) {
      if (turn > 0 && options.pauseMs > 0) await sleep(options.pauseMs, undefined, { signal });
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
              : moderator(settings.first),
        round: planned.round,
        roundTitle: planned.roundTitle,
        earlier: [...earlier],
      };
      run.emit({ type: 'turnStarted', turn, ...planned, model: refOf(request.settings.model) });
      for await (const outcome of models.write(
        request.settings.model,
        request,
        signal,
        options.example,
      )) {
        if (outcome.type === 'stage') {
          run.emit({ type: 'turnStage', turn, stage: outcome.stage });
          continue;
        }
        if (outcome.type === 'delta') {
          run.emit({ type: 'textDelta', turn, text: outcome.text });
          continue;
        }
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
          writtenBy: outcome.writtenBy,
          team: failed ? null : outcome.team,
        });
      }
    }
  } catch {
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
    const judge = models.judgeFor([settings.first.model, settings.second.model], options.example);
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
    const verdict = await models.verdict(judge, settings.topic, judged, signal);
    if (verdict) run.emit({ type: 'verdictReady', verdict });
  } catch {
    run.emit({ type: 'runFailed', message: generationTexts.runFailed });
    return 'failed';
  }
  run.emit({ type: 'runCompleted' });
  return 'completed';
}
