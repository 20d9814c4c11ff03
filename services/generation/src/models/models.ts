import {
  MAX_JUDGE_PANEL,
  OFFLINE_JUDGE_ID,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  OFFLINE_TEAM_MODEL_ID,
  OFFLINE_TEAM_MODEL_LABEL,
  type OfflineSpeakerMode,
  type SpeakerMode,
  type SpeakerModel,
  type SpeakerModelRef,
  type TeamNotes,
  type TurnStage,
  type Verdict,
  type WrittenBy,
} from '@debate/contracts';
import { ConfigError, type PinoLoggerService, reportDegradations } from '@debate/nest';
import type { OnApplicationShutdown } from '@nestjs/common';
import OpenAI from 'openai';
import { OfflineSpeaker, type OfflineSpeakerOptions } from '../speakers/offline.speaker.js';
import { type Judge, type JudgedTurn, judgeDebate, panelVerdictOf } from '../judging/judge.js';
import { ModelJudge } from '../judging/model.judge.js';
import { OfflineJudge } from '../judging/offline.judge.js';
import { OpenAiSpeaker, SpeakerError } from '../speakers/openai.speaker.js';
import type { Speaker, SpeakerChunk, TurnRequest } from '../speakers/speaker.js';
import { type SearchBackend, Searcher } from '../speakers/team/searcher.js';
import { type TeamMembers, TeamSpeaker } from '../speakers/team/team.speaker.js';
import type { ConfiguredModel } from './model-catalog.js';
import { modelMetrics } from './model-metrics.js';
import { TurnSlots } from './turn-slots.js';

/** After this many failed turns in a row a model is reported degraded, until one succeeds. */
const DEGRADED_AFTER_FAILURES = 3;

/** What a model's turn came to: the turn (undefined: the model failed it) and its provenance. */
export type TurnOutcome =
  | { readonly type: 'stage'; readonly stage: TurnStage }
  | { readonly type: 'delta'; readonly text: string }
  | {
      readonly type: 'finished';
      readonly turn: { readonly text: string; readonly summary: string } | undefined;
      readonly writtenBy: WrittenBy;
      /** How the team made it (a team's turn that was written). */
      readonly team: TeamNotes | null;
    };

interface Model {
  readonly ref: SpeakerModelRef;
  readonly speakerMode: SpeakerMode;
  readonly speaker: Speaker;
  /** The offline speaker's, written at once (an example debate), in its mode too. */
  readonly atOnce: Speaker | undefined;
  readonly slots: TurnSlots | undefined;
  failuresInARow: number;
}

export interface ModelsOptions {
  /**
   * The catalogue's models that may judge, in order of preference (`offline`: the offline
   * judge); none: the offline judge.
   */
  readonly judges?: readonly string[];
  /** How many judges read each debate (JUDGE_PANEL_SIZE): the scorecard's and its panel; 1 unset. */
  readonly panelSize?: number;
  /** How long one completion may take, and how often a 429/5xx is retried (the SDK's). */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly idleTimeoutMs: number;
  readonly offline: OfflineSpeakerOptions & { readonly speakerMode?: OfflineSpeakerMode };
  /** The speaker teams' search backend; unset, no searcher runs. */
  readonly search?: SearchBackend;
  /** Models that join once the service runs (the local model), which JUDGE_MODELS may name. */
  readonly addedLater?: readonly string[];
}

/**
 * The catalogue: the local model once its server is ready (added then, first), the operator's
 * models, then the offline speaker. Every turn is written through it, so each is timed, counted
 * per model (/metrics), held to its model's concurrency, and given its provenance; a model whose
 * last turns all failed is reported degraded (not removed).
 */
export class Models implements OnApplicationShutdown {
  private readonly models = new Map<string, Model>();
  /** The judges of the catalogue, in JUDGE_MODELS' order of preference. */
  private readonly judges = new Map<string, Judge>();
  private readonly offlineJudge = new OfflineJudge();
  /** The offline speaker without its pacing: example debates are written at once. */
  private readonly offlineAtOnce = new OfflineSpeaker({ tokensPerSecond: 0, firstTokenDelayMs: 0 });
  /** The models put in once the service ran (putFirst): the local model. */
  private readonly putLater = new Set<string>();
  /** JUDGE_MODELS: the catalogue ids of the judges, most preferred first (then the local model's). */
  private readonly judgeOrder: string[];
  /** Stops reporting this catalogue's degraded models on /health/ready. */
  private readonly stopReporting: () => void;
  /** The speaker teams' searcher, where a search backend is configured. */
  private readonly searcher: Searcher | undefined;

  constructor(
    configured: readonly ConfiguredModel[],
    private readonly options: ModelsOptions,
    private readonly logger: Pick<PinoLoggerService, 'log' | 'warn'>,
  ) {
    this.searcher = options.search && new Searcher(options.search);
    // A judge named twice reads once: a panel is of different judges.
    this.judgeOrder = [...new Set(options.judges ?? [])];
    // The local model may be named before it is there: it joins once its server is ready. The
    // offline judge is no catalogue model, but may be named to sit on a panel.
    const unknownJudges = (options.judges ?? []).filter(
      (id) =>
        id !== OFFLINE_JUDGE_ID &&
        !configured.some((entry) => entry.id === id) &&
        !(options.addedLater ?? []).includes(id),
    );
    if (unknownJudges.length > 0) {
      throw new ConfigError('generation', [
        `JUDGE_MODELS: ${unknownJudges.join(', ')} ${unknownJudges.length === 1 ? 'is' : 'are'} not in the model catalogue`,
      ]);
    }
    if (this.judgeOrder.includes(OFFLINE_JUDGE_ID)) {
      this.judges.set(OFFLINE_JUDGE_ID, this.offlineJudge);
    }
    for (const entry of configured) {
      this.addServed(entry, { judge: options.judges?.includes(entry.id) ?? false, first: false });
    }
    const offlineMode = options.offline.speakerMode ?? 'single';
    const offline = new OfflineSpeaker(options.offline);
    this.add(
      { id: OFFLINE_MODEL_ID, label: OFFLINE_MODEL_LABEL, kind: 'offline' },
      offlineMode === 'team' ? 'team' : 'single',
      offline,
      undefined,
    );
    if (offlineMode === 'both') {
      this.add(
        { id: OFFLINE_TEAM_MODEL_ID, label: OFFLINE_TEAM_MODEL_LABEL, kind: 'offline' },
        'team',
        offline,
        undefined,
      );
    }
    this.stopReporting = reportDegradations('models', () =>
      this.catalog().flatMap((model) => (model.status === 'degraded' ? [model.id] : [])),
    );
  }

  onApplicationShutdown(): void {
    this.stopReporting();
  }

  /**
   * Puts a model in once the service runs (the local model, when its server is ready): first in
   * the catalogue, so the engine page's default, and a judge when `judge` (where JUDGE_MODELS
   * names it, else the last preferred). A model put in this way before is replaced (its server
   * came back with another model); an operator's model of the same id is not.
   */
  putFirst(
    entry: ConfiguredModel,
    { judge, timeoutMs }: { readonly judge: boolean; readonly timeoutMs?: number },
  ): void {
    // An operator's model of the same id keeps it: a run naming it must not change model.
    if (this.models.has(entry.id) && !this.putLater.has(entry.id)) {
      throw new Error(`the catalogue has a model ${entry.id} already`);
    }
    this.putLater.add(entry.id);
    this.models.delete(entry.id);
    this.judges.delete(entry.id);
    this.addServed(entry, { judge, first: true, ...(timeoutMs ? { timeoutMs } : {}) });
  }

  /**
   * Adds a model served over OpenAI's API: its client, its speaker and, when it judges, its
   * judge. Every such model, configured or added later, is built here, so each is counted alike.
   */
  private addServed(
    entry: ConfiguredModel,
    {
      judge,
      first,
      timeoutMs = this.options.timeoutMs,
    }: { readonly judge: boolean; readonly first: boolean; readonly timeoutMs?: number },
  ): void {
    const metrics = modelMetrics();
    const client = new OpenAI({
      apiKey: entry.apiKey ?? 'no-key',
      ...(entry.baseUrl ? { baseURL: entry.baseUrl } : {}),
      timeout: timeoutMs,
      maxRetries: this.options.maxRetries,
      fetch: (input, init) => {
        // The SDK numbers its attempts: any after the first is a retry of a 429/5xx.
        const attempt = new Headers(init?.headers).get('x-stainless-retry-count');
        if (attempt && attempt !== '0')
          metrics.turnsRetried.inc({ model: entry.id, reason: 'http' });
        return fetch(input, init);
      },
    });
    const speaker = new OpenAiSpeaker(client, entry, {
      idleTimeoutMs: this.options.idleTimeoutMs,
      onModeRefused: (refused, next, reason) => {
        metrics.turnsRetried.inc({ model: entry.id, reason: 'mode' });
        this.logger.warn(
          `Model ${entry.id}: the server refused ${refused} (${reason}); asking in ${next} from now on`,
        );
      },
      onTokenLimitRefused: (reason) => {
        metrics.turnsRetried.inc({ model: entry.id, reason: 'token_limit' });
        this.logger.warn(
          `Model ${entry.id}: the server wants max_completion_tokens (${reason}); sending it from now on`,
        );
      },
    });
    const ref: SpeakerModelRef = { id: entry.id, label: entry.label, kind: 'model' };
    this.add(ref, entry.speakerMode, speaker, new TurnSlots(entry.maxConcurrentTurns), first);
    if (judge) {
      this.judges.set(entry.id, new ModelJudge(ref, client, entry));
      if (!this.judgeOrder.includes(entry.id)) this.judgeOrder.push(entry.id);
    }
    this.logger.log(
      `Model ${entry.id} (${entry.providerModel}) through ${entry.baseUrl ?? 'the OpenAI API'}, ${entry.structuredOutput}, ${entry.speakerMode}`,
    );
  }

  /** Adds a model; a team's members are its speaker's (the OpenAI one's or the offline one's). */
  private add(
    ref: SpeakerModelRef,
    speakerMode: SpeakerMode,
    members: TeamMembers,
    slots: TurnSlots | undefined,
    first = false,
  ): void {
    const inMode = (writer: TeamMembers): Speaker =>
      speakerMode === 'team'
        ? new TeamSpeaker(writer, this.searcher, (error) =>
            this.logger.warn(`The searcher found nothing for ${ref.id}: ${String(error)}`),
          )
        : writer;
    const speaker = inMode(members);
    const atOnce = ref.kind === 'offline' ? inMode(this.offlineAtOnce) : undefined;
    const model: Model = { ref, speakerMode, speaker, atOnce, slots, failuresInARow: 0 };
    // A Map lists in insertion order: the first model goes in before the others again.
    const after = first ? [...this.models.values()] : [];
    if (first) this.models.clear();
    this.models.set(ref.id, model);
    for (const other of after) this.models.set(other.ref.id, other);
    modelMetrics().degraded.set({ model: ref.id }, 0);
  }

  /**
   * The judge of a debate its speakers' models wrote: the first judge that did not speak in it,
   * the first judge when all did, the offline judge when none is configured (or `offlineOnly`:
   * an example costs no provider anything).
   */
  judgeFor(spokeBy: readonly string[], offlineOnly = false): Judge {
    if (offlineOnly) return this.offlineJudge;
    const judges = this.orderedJudges();
    return (
      judges.find((judge) => !spokeBy.includes(judge.ref.id)) ?? judges[0] ?? this.offlineJudge
    );
  }

  /**
   * The panel beside the scorecard's judge (JUDGE_PANEL_SIZE): the next judges in JUDGE_MODELS'
   * order that are not it, up to the panel's size. A judge whose model spoke sits on it too:
   * the judges' record measures self-preference on exactly those verdicts. None for an example.
   */
  panelFor(scorecardJudge: Judge, offlineOnly = false): Judge[] {
    if (offlineOnly) return [];
    return this.orderedJudges()
      .filter((judge) => judge.ref.id !== scorecardJudge.ref.id)
      .slice(0, Math.min(this.options.panelSize ?? 1, MAX_JUDGE_PANEL) - 1);
  }

  /** The judges there are, in JUDGE_MODELS' order, whatever the catalogue's. */
  private orderedJudges(): Judge[] {
    return this.judgeOrder.flatMap((id) => {
      const judge = this.judges.get(id);
      return judge ? [judge] : [];
    });
  }

  /**
   * The scorecard with its panel's verdicts, the judges reading at once; null when the
   * scorecard's judge could not give one (logged). A panel judge that fails is left out of the
   * panel (logged). Only an abort throws.
   */
  async verdict(
    judge: Judge,
    panel: readonly Judge[],
    topic: string,
    turns: readonly JudgedTurn[],
    signal: AbortSignal,
  ): Promise<Verdict | null> {
    // Without a scorecard the panel's verdicts are not kept: its judges are stopped then.
    const panelStop = new AbortController();
    const panelSignal = AbortSignal.any([signal, panelStop.signal]);
    const read = async (reader: Judge, readerSignal: AbortSignal): Promise<Verdict | null> => {
      try {
        return await judgeDebate(reader, topic, turns, readerSignal);
      } catch (error) {
        if (signal.aborted) throw error;
        // A panel judge stopped because the scorecard failed: that failure is logged already.
        if (readerSignal.aborted) return null;
        this.logger.warn(
          reader === judge
            ? `Judge ${reader.ref.id} could not score a debate: ${String(error)}`
            : `Judge ${reader.ref.id} could not score a debate, left out of its panel: ${String(error)}`,
        );
        return null;
      }
    };
    const scorecard = read(judge, signal).then((verdict) => {
      if (!verdict) panelStop.abort();
      return verdict;
    });
    const [verdict, ...others] = await Promise.all([
      scorecard,
      ...panel.map((member) => read(member, panelSignal)),
    ]);
    if (!verdict) return null;
    return {
      ...verdict,
      panel: others.flatMap((other) => (other ? [panelVerdictOf(other)] : [])),
    };
  }

  /** Whether the speaker teams search the web for evidence. */
  get searches(): boolean {
    return this.searcher !== undefined;
  }

  /** The model of this id, if the catalogue has it. */
  ref(modelId: string): SpeakerModelRef | undefined {
    return this.models.get(modelId)?.ref;
  }

  /** What the engine page lists, in the catalogue's order. */
  catalog(): SpeakerModel[] {
    return [...this.models.values()].map((model) => ({
      ...model.ref,
      speakerMode: model.speakerMode,
      status: model.failuresInARow >= DEGRADED_AFTER_FAILURES ? 'degraded' : 'ok',
    }));
  }

  /**
   * Writes one turn with the model: its words as they come, then the outcome with what wrote it.
   * A model's failure is an outcome (turn undefined), not an error; only an abort throws.
   */
  async *write(
    modelId: string,
    request: TurnRequest,
    signal: AbortSignal,
    atOnce = false,
  ): AsyncIterable<TurnOutcome> {
    const model = this.models.get(modelId);
    if (!model) throw new Error(`No model ${modelId} in the catalogue`);
    const speaker = (atOnce ? model.atOnce : undefined) ?? model.speaker;
    const metrics = modelMetrics();
    const labels = { model: modelId };
    const release = await model.slots?.acquire(signal);
    const started = performance.now();
    let firstTokenMs: number | null = null;
    let done: Extract<SpeakerChunk, { type: 'done' }> | undefined;
    let spent: { tokensIn: number | null; tokensOut: number | null } | undefined;
    metrics.turnsStarted.inc(labels);
    try {
      for await (const chunk of speaker.speak(request, signal)) {
        if (chunk.type === 'stage') yield chunk;
        else if (chunk.type === 'delta') {
          if (firstTokenMs === null) {
            firstTokenMs = performance.now() - started;
            metrics.firstToken.observe(labels, firstTokenMs / 1000);
          }
          yield chunk;
        } else done = chunk;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      this.logger.warn(`Model ${modelId} failed a turn: ${String(error)}`);
      // What the server still counted for the turn's attempts is the user's all the same.
      if (error instanceof SpeakerError) spent = error;
      done = undefined;
    } finally {
      release?.();
    }
    const failed = done === undefined;
    if (failed) {
      metrics.turnsFailed.inc(labels);
      model.failuresInARow += 1;
    } else model.failuresInARow = 0;
    metrics.degraded.set(labels, model.failuresInARow >= DEGRADED_AFTER_FAILURES ? 1 : 0);
    const tokensIn = done?.tokensIn ?? spent?.tokensIn ?? null;
    const tokensOut = done?.tokensOut ?? spent?.tokensOut ?? null;
    if (tokensIn) metrics.tokens.inc({ ...labels, direction: 'in' }, tokensIn);
    if (tokensOut) metrics.tokens.inc({ ...labels, direction: 'out' }, tokensOut);
    yield {
      type: 'finished',
      turn: done && { text: done.text, summary: done.summary },
      team: done?.team ?? null,
      writtenBy: {
        kind: model.ref.kind,
        modelId: model.ref.id,
        label: model.ref.label,
        serverModel: done?.serverModel ?? null,
        tokensIn,
        tokensOut,
        firstTokenMs: firstTokenMs === null ? null : Math.round(firstTokenMs),
        totalMs: Math.round(performance.now() - started),
        turns: 1,
        failedTurns: failed ? 1 : 0,
      },
    };
  }
}
