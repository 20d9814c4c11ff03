import {
  debatesContracts,
  EXAMPLES_USER_ID,
  type FinishedRun,
  type generationContracts,
  generationTexts,
  NO_SUCH_RUN,
  OFFLINE_MODEL_ID,
  type ParsedRequestOf,
  type ResponseOf,
  type RunEvent,
  type runLookupContract,
  usageContracts,
} from '@debate/contracts';
import { INSTANCE_KEY, PinoLoggerService, ServiceClient } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import type { Observable } from 'rxjs';
import { Models } from '../models/models.js';
import { type DebateRun, generateDebate, type RunOptions } from './debate-run.js';
import { RunRegistry } from './run-registry.js';

export const RUN_OPTIONS = Symbol('RUN_OPTIONS');

/**
 * A finished run as saving needs it: its settings and the turns; null before it completed (or
 * was stopped after a complete speaker's turn).
 */
function finishedOf(run: DebateRun): FinishedRun | null {
  if (!run.saveable || !run.settings) return null;
  const turns = run.history.flatMap((event) =>
    event.type === 'turnCompleted'
      ? [
          {
            speaker: event.speaker,
            round: event.round,
            text: event.text,
            summary: event.summary,
            writtenBy: event.writtenBy,
            team: event.team,
          },
        ]
      : [],
  );
  const { topic, first, second, debateFormat, moderatorEnabled } = run.settings;
  return {
    runId: run.runId,
    topic,
    first,
    second,
    turns,
    verdict: run.verdict,
    debateFormat,
    moderatorEnabled,
    rematchOf: run.rematchOf,
    stopped: run.stopped,
  };
}

type Contracts = typeof generationContracts;

/** A new run's id: it says which instance has the run (runInstanceKey), where watching and saving ask. */
function newRunId(): string {
  return `${INSTANCE_KEY}${randomUUID().slice(8)}`;
}

/**
 * Starts debates and lets their owners watch and stop them. A debate is taken from the user's
 * allowance before its run starts, given back if the run fails as a whole or is stopped before
 * a speaker's model wrote a word, and settled when it completes or is stopped later.
 */
@Injectable()
export class RunsService {
  /** Each run's end with the usage service (settled or given back), once it has ended. */
  private readonly settlements = new WeakMap<DebateRun, Promise<void>>();

  constructor(
    private readonly registry: RunRegistry,
    private readonly services: ServiceClient,
    private readonly models: Models,
    @Inject(RUN_OPTIONS) private readonly options: RunOptions,
    private readonly logger: PinoLoggerService,
  ) {}

  async start(
    request: ParsedRequestOf<Contracts['start']>,
  ): Promise<ResponseOf<Contracts['start']>> {
    const runId = newRunId();
    const { userId, email, emailVerified, settings, rematchOf } = request;
    // A model the catalogue does not have is refused before anything is taken. The person's
    // side has no model (its reserved id is checked by the settings' contract).
    for (const speaker of ['first', 'second'] as const) {
      if (settings.person?.speaker === speaker) continue;
      const model = settings[speaker].model;
      if (!this.models.ref(model)) {
        return {
          started: false,
          reason: 'unknown_model',
          speaker,
          message: generationTexts.unknownModel(model),
        };
      }
    }
    const taken = await this.services.request(usageContracts.consume, {
      userId,
      email,
      emailVerified,
      runId,
    });
    if (!taken.granted) {
      const message =
        taken.reason === 'rate_limited'
          ? generationTexts.rateLimited
          : generationTexts.noFreeDebates;
      return { started: false, reason: taken.reason, message };
    }
    const run = this.registry.create(runId, userId, settings, rematchOf ?? null);
    const settlement = generateDebate(run, settings, this.models, this.options)
      .then(async (outcome) => {
        // A stopped run is kept like a completed one once it has a speaker's complete turn
        // (saveable), and settled like one once a speaker's model has written words of its
        // argument; stopped before that, it gives its free debate back.
        if (run.saveable) await this.keep(run);
        const contract = run.costsFreeDebate ? usageContracts.settle : usageContracts.refund;
        await this.services.request(contract, { userId, runId, ...run.tokens() });
        if (outcome === 'failed')
          this.logger.warn(`Run ${runId} failed; its debate was given back`);
      })
      .catch((error: unknown) =>
        this.logger.error(
          `Run ${runId} could not be settled with the usage service: ${String(error)}`,
        ),
      )
      .finally(() => this.registry.ended(run));
    this.settlements.set(run, settlement);
    return { started: true, runId };
  }

  /**
   * Hands the completed run to the debates service, which keeps it until it is saved: saving
   * it and showing it again then survive this instance's restart. A failure is logged; the run
   * is still here meanwhile.
   */
  private async keep(run: DebateRun): Promise<void> {
    const finished = finishedOf(run);
    if (!finished) return;
    try {
      await this.services.request(debatesContracts.keepRun, { userId: run.userId, run: finished });
    } catch (error) {
      this.logger.warn(
        `Run ${run.runId} could not be kept by the debates service: ${String(error)}`,
      );
    }
  }

  /**
   * An example debate for an empty community: the offline speaker writes it at once, judged by
   * the offline judge, outside any allowance, as the examples account's completed run.
   */
  async writeExample(
    request: ParsedRequestOf<Contracts['writeExample']>,
  ): Promise<ResponseOf<Contracts['writeExample']>> {
    const { settings } = request;
    if (settings.first.model !== OFFLINE_MODEL_ID || settings.second.model !== OFFLINE_MODEL_ID) {
      throw new RpcException({
        status: 'error',
        message: 'An example is written by the offline speaker only',
      });
    }
    const runId = newRunId();
    const run = this.registry.create(runId, EXAMPLES_USER_ID, settings, null);
    try {
      const outcome = await generateDebate(run, settings, this.models, {
        pauseMs: 0,
        example: true,
      });
      if (outcome !== 'completed') {
        throw new RpcException({ status: 'error', message: 'The example could not be written' });
      }
    } finally {
      this.registry.ended(run);
    }
    return { runId };
  }

  /** A completed run of the user's, for saving: its settings and the speakers' turns. */
  get(request: ParsedRequestOf<typeof runLookupContract>): ResponseOf<typeof runLookupContract> {
    const run = this.registry.find(request.runId, request.userId);
    return { run: run ? finishedOf(run) : null };
  }

  /**
   * Stops a run of the user's on this instance and answers once it has ended and the usage
   * service has its free debate back or settled (so the count the user is shown next is
   * right): whether this stopped it, and whether it cost the free debate. A run that had ended
   * already is left as it was (stopped: false).
   */
  async stop(request: ParsedRequestOf<Contracts['stop']>): Promise<ResponseOf<Contracts['stop']>> {
    const run = this.registry.find(request.runId, request.userId);
    if (!run) throw new RpcException({ status: 'error', message: NO_SUCH_RUN });
    const stopping = run.stop();
    const end = await run.end;
    await this.settlements.get(run);
    return {
      stopped: stopping && end.type === 'runStopped',
      freeDebateUsed: end.type === 'runStopped' ? end.freeDebateUsed : end.type === 'runCompleted',
    };
  }

  /**
   * The person's text for the turn their run awaits (see DebateRun.submit): accepted, or
   * refused with nothing changed. Someone else's run, or one this instance does not have,
   * reads as NO_SUCH_RUN.
   */
  submitTurn(
    request: ParsedRequestOf<Contracts['submitTurn']>,
  ): ResponseOf<Contracts['submitTurn']> {
    const run = this.registry.find(request.runId, request.userId);
    if (!run) throw new RpcException({ status: 'error', message: NO_SUCH_RUN });
    return run.submit(request.turn, request.text);
  }

  /** The events of a run of the user's on this instance, from its first. */
  watch(request: ParsedRequestOf<Contracts['watch']>): Observable<RunEvent> {
    const run = this.registry.find(request.runId, request.userId);
    if (!run) throw new RpcException({ status: 'error', message: NO_SUCH_RUN });
    return run.watch();
  }
}
