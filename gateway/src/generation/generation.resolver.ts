import {
  ANONYMOUS_AUTHOR,
  type Debate,
  DebateId,
  DebateSettings,
  debatesContracts,
  generationContracts,
  identityContracts,
  MAX_PERSON_NAME_LENGTH,
  NO_SUCH_RUN,
  PERSON_MODEL_ID,
  type ResponseOf,
  runInstanceKey,
  type RunEvent,
  runLookupContract,
} from '@debate/contracts';
import { ServiceClient, ServiceError, ServiceUnavailableError } from '@debate/nest';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { Args, Context, Int, Mutation, Resolver, Subscription } from '@nestjs/graphql';
import { catchError, finalize, throwError } from 'rxjs';
import { GraphQLError } from 'graphql';
import { Authenticated } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { observableIterator } from '../common/observable-iterator.js';
import {
  badInput,
  debateNotFound,
  emailNotVerified,
  noSuchRun,
  parseInput,
} from '../errors/graphql-errors.js';
import { clientError } from '../errors/service-errors.filter.js';
import {
  type ConnectionSubscriptions,
  SubscriptionLimits,
} from '../query-limits/subscription-limits.js';
import { RateLimit } from '../rate-limit/rate-limit.guard.js';
import {
  DebateRunEventModel,
  DebateSettingsInput,
  StopDebateResultModel,
} from './generation.models.js';
import { endWhenInstanceLost, type InstanceProbe } from './run-liveness.js';

function toModel(event: RunEvent): DebateRunEventModel {
  const empty: DebateRunEventModel = {
    type: event.type,
    seq: event.seq,
    at: event.at,
    runId: null,
    topic: null,
    firstModel: null,
    secondModel: null,
    model: null,
    firstStance: null,
    secondStance: null,
    turn: null,
    speaker: null,
    round: null,
    roundTitle: null,
    text: null,
    summary: null,
    failed: null,
    cutOff: null,
    writtenBy: null,
    stage: null,
    team: null,
    judge: null,
    verdict: null,
    message: null,
    freeDebateUsed: null,
    minWords: null,
    maxWords: null,
    deadline: null,
    stopReason: null,
  };
  if (event.type === 'runStopped') {
    const { reason, ...stopped } = event;
    return { ...empty, ...stopped, stopReason: reason };
  }
  return { ...empty, ...event };
}

/** A person's turn as submitTurn takes it: the run's id, the turn's number, the text. */
const SubmittedTurn = generationContracts.submitTurn.request.omit({ userId: true }).extend({
  runId: DebateId,
});

/** A refused turn's code, for the client to tell the refusals apart. */
const turnRefusalCodes = {
  too_short: 'TURN_TOO_SHORT',
  too_long: 'TURN_TOO_LONG',
  not_your_turn: 'NOT_YOUR_TURN',
} as const;

/**
 * Two pieces of the same turn's text waiting to be sent go as one (the later seq, the earlier
 * time): under load the browser gets fewer, larger messages instead of a growing backlog.
 */
function joinDeltas(
  earlier: { debateRun: DebateRunEventModel },
  later: { debateRun: DebateRunEventModel },
): { debateRun: DebateRunEventModel } | undefined {
  const a = earlier.debateRun;
  const b = later.debateRun;
  if (a.type !== 'textDelta' || b.type !== 'textDelta' || a.turn !== b.turn) return undefined;
  return { debateRun: { ...b, at: a.at, text: `${a.text ?? ''}${b.text ?? ''}` } };
}

/**
 * A saved debate's rematch: the same motion, format and sides (each side's stance and style),
 * each model now on the other side. The personality hints are not kept with a saved debate.
 * A debate saved before its format was kept is run in the default one, without a moderator.
 */
export function rematchSettings(debate: Debate): DebateSettings {
  const side = (own: Debate['model1'], model: Debate['model1']) => ({
    model: model.name,
    stance: own.stance,
    rhetoricStyle: own.rhetoricStyle,
    personality: '',
  });
  return {
    topic: debate.topic,
    debateFormat: debate.debateFormat ?? 'structured',
    moderatorEnabled: debate.moderatorEnabled ?? false,
    first: side(debate.model1, debate.model2),
    second: side(debate.model2, debate.model1),
  };
}

/** How long the gateway takes the identity service's word that nobody is asked to verify. */
const VERIFICATION_SETTING_TTL_MS = 60_000;

/**
 * A watched run silent this long has its instance asked whether it is still there; three asks
 * unanswered a second apart and the run counts as lost with it (endWhenInstanceLost).
 */
const RUN_LIVENESS = { silenceMs: 5_000, unansweredAsks: 3, retryMs: 1_000 };

/** The generation service: starting a debate, and watching it being written. */
@Resolver()
export class GenerationResolver implements OnModuleDestroy {
  private readonly logger = new Logger(GenerationResolver.name);
  private readonly shutdown = new AbortController();
  /**
   * Until when the identity service has said the deployment asks for no verified address: a
   * start is not checked then (no extra call, no dependency on that service).
   */
  private verificationOffUntil = 0;

  constructor(
    private readonly services: ServiceClient,
    private readonly subscriptionLimits: SubscriptionLimits,
  ) {
    // Every open debateRun subscription listens to it: as many listeners as runs watched.
    setMaxListeners(0, this.shutdown.signal);
  }

  onModuleDestroy(): void {
    this.shutdown.abort();
  }

  @Authenticated()
  @RateLimit('startDebate', { account: 'user' })
  @Mutation(() => String, {
    description:
      'Takes one free debate and starts generating it; returns the run id to watch with debateRun.',
  })
  async startDebate(
    @Args('settings', { type: () => DebateSettingsInput }) input: DebateSettingsInput,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<string> {
    const { person, ...sides } = input;
    // The person's name comes from their account, never from the browser: nobody can write
    // turns under someone else's name.
    const settings = parseInput(
      DebateSettings,
      person
        ? { ...sides, person: { speaker: person, displayName: await this.nameOf(user) } }
        : sides,
      (issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`,
    );
    return this.start(user, settings);
  }

  /** The name a person's turns are written by: their display name, or the anonymous one. */
  private async nameOf(user: AuthenticatedUser): Promise<string> {
    const { user: profile } = await this.services.request(identityContracts.getUser, {
      id: user.id,
    });
    const name = profile?.displayName?.trim().slice(0, MAX_PERSON_NAME_LENGTH).trim();
    return name || ANONYMOUS_AUTHOR;
  }

  // The debate's owner only: the debates service finds only the user's own debates.
  @Authenticated()
  @RateLimit('startDebate', { account: 'user' })
  @Mutation(() => String, {
    description:
      "Takes one free debate and starts the rematch of the user's saved debate: the same motion, " +
      'format and styles, each model on the other side. Saved, it is linked to the first as a ' +
      'side-swapped pair. Returns the run id to watch with debateRun.',
  })
  async startRematch(
    @Args('debateId') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<string> {
    const debateId = parseInput(DebateId, id, 'Invalid debate id');
    const { debate } = await this.services.request(debatesContracts.get, {
      userId: user.id,
      debateId,
    });
    if (!debate) throw debateNotFound();
    // A rematch swaps the models; a person's side has none to swap.
    if (debate.model1.name === PERSON_MODEL_ID || debate.model2.name === PERSON_MODEL_ID) {
      throw badInput('A debate against a person has no rematch', 'debateId');
    }
    return this.start(user, rematchSettings(debate), debate.id);
  }

  /** Starts a run of the user's: checks the address where asked, then takes a free debate. */
  private async start(
    user: AuthenticatedUser,
    settings: DebateSettings,
    rematchOf?: string,
  ): Promise<string> {
    // A token issued before the link was followed says unverified: the realm has the last word.
    if (!user.emailVerified && Date.now() >= this.verificationOffUntil) {
      const status = await this.services.request(identityContracts.verificationStatus, {
        userId: user.id,
      });
      if (!status.required) this.verificationOffUntil = Date.now() + VERIFICATION_SETTING_TTL_MS;
      if (status.mustVerifyEmail) throw emailNotVerified(user.email);
    }
    // The usage service refuses a start when no free debate is left, or when the user has
    // started the per-minute limit's worth already (counted there, for every gateway alike).
    const started = await this.services.request(
      generationContracts.start,
      {
        userId: user.id,
        email: user.email,
        emailVerified: user.emailVerified,
        settings,
        ...(rematchOf ? { rematchOf } : {}),
      },
      { timeoutMs: 10_000 },
    );
    if (!started.started) {
      if (started.reason === 'unknown_model') {
        throw badInput(started.message, `settings.${started.speaker}.model`);
      }
      // The usage service's starts-per-minute rule counts any minute: at most a minute to wait.
      throw new GraphQLError(started.message, {
        extensions:
          started.reason === 'rate_limited'
            ? { code: 'RATE_LIMITED', retryAfter: 60 }
            : { code: 'NO_FREE_DEBATES' },
      });
    }
    return started.runId;
  }

  // The run's owner only: the generation instance that has it finds only the user's own runs.
  @Authenticated()
  @Mutation(() => StopDebateResultModel, {
    description:
      "Stops the user's debate run being written: the turn under way is kept as far as it went " +
      "(cut off), nothing more is written or judged, and the run ends with runStopped. It uses the free debate once a speaker's " +
      'turn was complete (then it can be saved, marked stopped); before that the free debate is given back. ' +
      'A run that had ended already is left as it was (stopped: false).',
  })
  async stopDebate(
    @Args('runId') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<StopDebateResultModel> {
    const runId = parseInput(DebateId, id, 'Invalid run id');
    const instance = runInstanceKey(runId);
    if (!instance) throw noSuchRun();
    try {
      return await this.services.request(
        generationContracts.stop,
        { runId, userId: user.id },
        { instance },
      );
    } catch (error) {
      if (error instanceof ServiceError && error.message === NO_SUCH_RUN) throw noSuchRun();
      throw error;
    }
  }

  // The run's owner only, as stopDebate: the instance that has it finds only the user's own runs.
  @Authenticated()
  @RateLimit('submitTurn', { account: 'user' })
  @Mutation(() => Boolean, {
    description:
      "The signed-in user's text for the turn their debate against a model awaits (turnAwaiting): " +
      'true when accepted (the debate goes on). Refused, with nothing changed: TURN_TOO_SHORT or ' +
      "TURN_TOO_LONG (outside the round's word limits, named in the message), NOT_YOUR_TURN (the " +
      "run awaits no such turn of theirs); someone else's run or none: NOT_FOUND.",
  })
  async submitTurn(
    @Args('runId') id: string,
    @Args('turn', { type: () => Int }) turn: number,
    @Args('text') text: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<boolean> {
    const input = parseInput(SubmittedTurn, { runId: id, turn, text }, (issue) =>
      issue.path[0] === 'text' ? `text: ${issue.message}` : issue.message,
    );
    const instance = runInstanceKey(input.runId);
    if (!instance) throw noSuchRun();
    let reply: ResponseOf<typeof generationContracts.submitTurn>;
    try {
      reply = await this.services.request(
        generationContracts.submitTurn,
        { ...input, userId: user.id },
        { instance },
      );
    } catch (error) {
      if (error instanceof ServiceError && error.message === NO_SUCH_RUN) throw noSuchRun();
      throw error;
    }
    if (!reply.accepted) {
      throw new GraphQLError(reply.message, {
        extensions: { code: turnRefusalCodes[reply.reason] },
      });
    }
    return true;
  }

  @Authenticated()
  @Subscription(() => DebateRunEventModel, {
    description: "A run's events from its start, then live until it ends (its owner only).",
  })
  debateRun(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
    @Context('subscriptions') connection: ConnectionSubscriptions | undefined,
  ): AsyncIterableIterator<{ debateRun: DebateRunEventModel }> {
    const runId = parseInput(DebateId, id, 'Invalid run id');
    const instance = runInstanceKey(runId);
    if (!instance) throw noSuchRun();
    const ask = async (): Promise<InstanceProbe> => {
      try {
        await this.services.request(runLookupContract, { runId, userId: user.id }, { instance });
        return 'answered';
      } catch (error) {
        return error instanceof ServiceUnavailableError ? 'unreachable' : 'answered';
      }
    };
    const lost = () => {
      this.logger.warn(
        `Run ${runId}: its generation instance ${instance} no longer answers; its watcher is told NOT_FOUND`,
      );
      return noSuchRun();
    };
    // A run lives on one instance: if that instance is gone, its watcher is told, not left waiting.
    const events = endWhenInstanceLost(
      this.services.stream(generationContracts.watch, { runId, userId: user.id }, { instance }),
      ask,
      lost,
      RUN_LIVENESS,
    );
    const release = this.subscriptionLimits.acquire(user.id, connection);
    return observableIterator(
      // A stream's failure reaches the client over the WebSocket, past the exception filter.
      events.pipe(
        finalize(release),
        catchError((error: unknown) =>
          throwError(() =>
            error instanceof ServiceError && error.message === NO_SUCH_RUN
              ? noSuchRun()
              : clientError(error),
          ),
        ),
      ),
      (event) => ({ debateRun: toModel(event) }),
      this.shutdown.signal,
      joinDeltas,
    );
  }
}
