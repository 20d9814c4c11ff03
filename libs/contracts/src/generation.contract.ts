import { z } from 'zod';
import { defineRequest, defineStream } from './contract.js';
import {
  allowanceTexts,
  judgeCriteria,
  MAX_TOPIC_LENGTH,
  MAX_JUDGE_PANEL,
  MAX_VERDICT_TOTAL,
  modelKinds,
  MAX_EVIDENCE,
  MAX_PERSON_NAME_LENGTH,
  MIN_OPPOSING_STANCE,
  PERSON_MODEL_ID,
  speakerNames,
  turnStages,
} from './constants/index.js';
import { subjects } from './subjects.js';
import { ConsumeRefusal } from './usage.contract.js';

/** The settings a debate is generated with, as the engine page offers them (spec §3). */
export const rhetoricStyles = [
  'standard',
  'formal',
  'casual',
  'emotional',
  'factual',
  'adversarial',
] as const;
export const debateFormats = [
  'structured',
  'oxford',
  'crossfire',
  'parliamentary',
  'comment_section',
] as const;
/**
 * The spec's two models: the catalogue's entries when only `OPENAI_API_KEY` is configured. The
 * operator's catalogue (MODEL_CATALOG) may offer any others.
 */
export const defaultModelIds = ['gpt-4', 'gpt-3.5-turbo'] as const;

export const RhetoricStyle = z.enum(rhetoricStyles);
export const DebateFormat = z.enum(debateFormats);
/** A model of the catalogue, by its id: lower-case letters, digits, '.', '_' and '-'. */
export const ModelId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,63}$/,
    "must be a model id of the catalogue (lower-case letters, digits, '.', '_' or '-')",
  );
export type RhetoricStyle = z.output<typeof RhetoricStyle>;
export type DebateFormat = z.output<typeof DebateFormat>;
export type ModelId = z.output<typeof ModelId>;

/** A stance from -1 to 1 in steps of 0.1 (spec §5). */
export const Stance = z
  .number()
  .min(-1)
  .max(1)
  .refine((value) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9, {
    message: 'must be a multiple of 0.1',
  });

export const SpeakerSettings = z
  .object({
    /** The catalogue's id of the model that writes this speaker's turns. */
    model: ModelId,
    stance: Stance,
    rhetoricStyle: RhetoricStyle,
    /** Free-text personality hints for the speaker's prompt. */
    personality: z.string().max(500),
  })
  .strict();
export type SpeakerSettings = z.output<typeof SpeakerSettings>;

/**
 * A person's side in a debate against a model: which speaker they are, and the name their
 * turns are written by (the gateway takes it from the identity service, never from the browser).
 */
export const PersonSide = z
  .object({
    speaker: z.enum(['first', 'second']),
    displayName: z.string().trim().min(1).max(MAX_PERSON_NAME_LENGTH),
  })
  .strict();
export type PersonSide = z.output<typeof PersonSide>;

export const DebateSettings = z
  .object({
    topic: z
      .string()
      .trim()
      .min(1, 'The topic is empty')
      .max(MAX_TOPIC_LENGTH, `The topic is longer than ${MAX_TOPIC_LENGTH} characters`),
    debateFormat: DebateFormat,
    moderatorEnabled: z.boolean(),
    first: SpeakerSettings,
    second: SpeakerSettings,
    /** Present: one side is a person's, who writes its turns (a debate against a model). */
    person: PersonSide.optional(),
  })
  .strict()
  .superRefine((settings, context) => {
    // The reserved id marks the person's side and nothing else: a debate names a person's
    // side exactly when its `person` says which one, and a person never debates a person.
    for (const side of ['first', 'second'] as const) {
      const isPersonSide = settings.person?.speaker === side;
      const isPersonModel = settings[side].model === PERSON_MODEL_ID;
      if (isPersonSide && !isPersonModel) {
        context.addIssue({
          code: 'custom',
          path: [side, 'model'],
          message: `The person's side must have the model "${PERSON_MODEL_ID}"`,
        });
      } else if (!isPersonSide && isPersonModel) {
        context.addIssue({
          code: 'custom',
          path: [side, 'model'],
          message: settings.person
            ? `Only the person's side may have the model "${PERSON_MODEL_ID}"; the other side needs a model of the catalogue`
            : `The model "${PERSON_MODEL_ID}" needs the debate's person side to be set`,
        });
      }
    }
    // Against a person, the model argues the other side: not neutral, not the person's side.
    const person = settings.person;
    if (person) {
      const modelSide = person.speaker === 'first' ? 'second' : 'first';
      const personStance = settings[person.speaker].stance;
      const modelStance = settings[modelSide].stance;
      if (
        personStance === 0 ||
        Math.sign(modelStance) === Math.sign(personStance) ||
        Math.abs(modelStance) < MIN_OPPOSING_STANCE
      ) {
        context.addIssue({
          code: 'custom',
          path: [modelSide, 'stance'],
          message: `Against a person the model takes the other side: a stance of at least ${MIN_OPPOSING_STANCE} the other way from the person's, who is not neutral`,
        });
      }
    }
  });
export type DebateSettings = z.output<typeof DebateSettings>;

const tokens = z.number().int().nonnegative();

/**
 * What really wrote a turn, or a speaker's turns: the catalogue's model (its id and label as
 * they were when it wrote) or the offline speaker; the model id the server reported; the tokens
 * the stream's usage counted (null: not reported, or no model); the time to the first token and
 * the whole time, in milliseconds. For a speaker (speakerWrittenBy): tokens and totalMs are the
 * sums over its turns, firstTokenMs their mean, serverModel the last one reported.
 */
export const WrittenBy = z
  .object({
    kind: z.enum(modelKinds),
    modelId: ModelId,
    label: z.string().min(1).max(80),
    serverModel: z.string().max(200).nullable(),
    tokensIn: tokens.nullable(),
    tokensOut: tokens.nullable(),
    firstTokenMs: z.number().nonnegative().nullable(),
    totalMs: z.number().nonnegative(),
    /** How many turns this covers, and how many of them the model failed (the spec's error text). */
    turns: z.number().int().min(1),
    failedTurns: z.number().int().nonnegative(),
  })
  .strict();
export type WrittenBy = z.output<typeof WrittenBy>;

function sumOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

/** A speaker's provenance from its turns' (null when it has none). */
export function speakerWrittenBy(turns: readonly WrittenBy[]): WrittenBy | null {
  const last = turns.at(-1);
  if (!last) return null;
  const firstTokens = turns.flatMap((turn) =>
    turn.firstTokenMs === null ? [] : [turn.firstTokenMs],
  );
  return {
    kind: last.kind,
    modelId: last.modelId,
    label: last.label,
    serverModel: turns.findLast((turn) => turn.serverModel !== null)?.serverModel ?? null,
    tokensIn: sumOrNull(turns.map((turn) => turn.tokensIn)),
    tokensOut: sumOrNull(turns.map((turn) => turn.tokensOut)),
    firstTokenMs:
      firstTokens.length === 0
        ? null
        : Math.round(firstTokens.reduce((sum, ms) => sum + ms, 0) / firstTokens.length),
    totalMs: turns.reduce((sum, turn) => sum + turn.totalMs, 0),
    turns: turns.reduce((sum, turn) => sum + turn.turns, 0),
    failedTurns: turns.reduce((sum, turn) => sum + turn.failedTurns, 0),
  };
}

/** A model of the catalogue as a speaker is given it: its id, its label, whether it is offline. */
export const SpeakerModelRef = z
  .object({ id: ModelId, label: WrittenBy.shape.label, kind: WrittenBy.shape.kind })
  .strict();
export type SpeakerModelRef = z.output<typeof SpeakerModelRef>;

/**
 * The judges' criteria and their weights (Debatrix's and Debate.org's ballots): argument
 * strength 3, evidence 2, rebuttal and clash 2, clarity 1.
 */
export const JudgeCriterion = z.enum(judgeCriteria);
export type JudgeCriterion = z.output<typeof JudgeCriterion>;

const Debater = z.enum(speakerNames);

/** One speaker's score on one criterion (1 to 10), with the judge's one-sentence reason. */
export const VerdictScore = z
  .object({
    speaker: Debater,
    criterion: JudgeCriterion,
    score: z.number().min(1).max(10),
    reason: z.string().min(1).max(400),
  })
  .strict();
export type VerdictScore = z.output<typeof VerdictScore>;

/** One reading of the debate: as given, or with the speakers' order and labels swapped. */
export const VerdictReading = z
  .object({
    order: z.enum(['as_given', 'swapped']),
    /** The winner the judge named in this reading; null: a tie. */
    winner: Debater.nullable(),
    firstTotal: z.number().min(0).max(MAX_VERDICT_TOTAL),
    secondTotal: z.number().min(0).max(MAX_VERDICT_TOTAL),
  })
  .strict();
export type VerdictReading = z.output<typeof VerdictReading>;

/**
 * The judges' scorecard of a debate: read twice, the second time with the speakers' order and
 * labels swapped (a judge favours the position it reads first). The winner when both readings
 * name the same one; a tie when they disagree (`readings_disagree`) or both call it even
 * (`judged_even`). Scores are the two readings' mean, reasons the first reading's; totals are
 * weighted (at most 80).
 */
const verdictOutcome = {
  /** The winner; null when it is a tie (then `tie` is true and `tieReason` says why). */
  winner: Debater.nullable(),
  tie: z.boolean(),
  tieReason: z.enum(['readings_disagree', 'judged_even']).nullable(),
  firstTotal: z.number().min(0).max(MAX_VERDICT_TOTAL),
  secondTotal: z.number().min(0).max(MAX_VERDICT_TOTAL),
  readings: z.array(VerdictReading).length(2),
  /** The judge: a model of the catalogue or the offline judge, with its tokens and times. */
  judgedBy: WrittenBy,
};

/**
 * Another judge of the panel's verdict on the same debate (JUDGE_PANEL_SIZE): its two readings,
 * sides swapped, its winner and totals as the scorecard's judge gives them, without the
 * criteria's scores and reasons. The panel is what the judges' record (agreement between
 * judges, self-preference) is computed from; the scorecard is the first judge's.
 */
export const PanelVerdict = z.object(verdictOutcome).strict();
export type PanelVerdict = z.output<typeof PanelVerdict>;

export const Verdict = z
  .object({
    ...verdictOutcome,
    scores: z.array(VerdictScore).length(speakerNames.length * judgeCriteria.length),
    /**
     * The panel's other judges, in JUDGE_MODELS' order (none: one judge read it). A judge of the
     * panel may be one whose model spoke in the debate; the scorecard's judge is not, where
     * another could judge. (Defaulted: verdicts stored before there were panels.)
     */
    panel: z
      .array(PanelVerdict)
      .max(MAX_JUDGE_PANEL - 1)
      .default([]),
  })
  .strict();
export type Verdict = z.output<typeof Verdict>;

/** The stages of a team's turn, in order (a single speaker's turn has none). */
export const TurnStage = z.enum(turnStages);
export type TurnStage = z.output<typeof TurnStage>;

/** The most fixes a team's reviewer returns. */
export const MAX_REVIEW_FIXES = 3;

/** A source a team's searcher found: its title and its link (http or https). */
export const Evidence = z
  .object({
    title: z.string().min(1).max(300),
    url: z.url({ protocol: /^https?$/ }).max(2000),
  })
  .strict();
export type Evidence = z.output<typeof Evidence>;

/** The most characters of a team's plan, and of one of its reviewer's fixes, that are kept. */
export const MAX_PLAN_LENGTH = 8000;
export const MAX_FIX_LENGTH = 2000;

/**
 * How a team made a speech ("How this speech was made"): whether its searcher ran and the
 * sources it found, the analyzer's plan, what the reviewer did (accepted the draft, asked for
 * fixes, or could not review it), whether the speech is the writer's revision, and how many
 * steps the team took (the search and each completion).
 */
export const TeamNotes = z
  .object({
    searched: z.boolean().default(false),
    evidence: z.array(Evidence).max(MAX_EVIDENCE).default([]),
    plan: z.string().max(MAX_PLAN_LENGTH),
    review: z.enum(['accepted', 'fixes', 'failed']),
    fixes: z.array(z.string().max(MAX_FIX_LENGTH)).max(MAX_REVIEW_FIXES),
    revised: z.boolean(),
    steps: z.number().int().min(1).max(20),
  })
  .strict();
export type TeamNotes = z.output<typeof TeamNotes>;

/** Who speaks a turn. */
export const TurnSpeaker = z.enum(['First Speaker', 'Second Speaker', 'Moderator']);
export type TurnSpeaker = z.output<typeof TurnSpeaker>;

const turnPosition = {
  /** 0-based position of the turn in the run. */
  turn: z.number().int().nonnegative(),
  speaker: TurnSpeaker,
  /** 1 to 3; the moderator's opening is 0 and closing 4. */
  round: z.number().int().min(0).max(4),
  roundTitle: z.string().min(1),
};

/** Every event's position (from 0) and when the run recorded it (ms since the epoch). */
const sequenced = { seq: z.number().int().nonnegative(), at: z.number().nonnegative() };

/** Why a run was stopped: its owner's Stop, or its person's turn waited too long. */
export const RunStopReason = z.enum(['owner', 'timedOut']);
export type RunStopReason = z.output<typeof RunStopReason>;

/** What a run reports, in order (`seq` from 0), from its start to its end. */
export const RunEvent = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('runStarted'),
      ...sequenced,
      runId: z.string(),
      topic: z.string(),
      /** The models the two speakers were given (the moderator speaks with the first's). */
      firstModel: SpeakerModelRef,
      secondModel: SpeakerModelRef,
      firstStance: Stance,
      secondStance: Stance,
    })
    .strict(),
  z
    .object({
      type: z.literal('turnStarted'),
      ...sequenced,
      ...turnPosition,
      /** The model about to write the turn. */
      model: SpeakerModelRef,
    })
    .strict(),
  /** A team's turn moved on to a stage; at 'revising' the revision's words start again. */
  /**
   * A person's turn begins (instead of turnStarted): the run waits for their text, of
   * `minWords` to `maxWords` words, until `deadline` (ISO time), after which it ends as
   * runStopped with reason 'timedOut'. The turn then completes as any, with turnCompleted.
   */
  z
    .object({
      type: z.literal('turnAwaiting'),
      ...sequenced,
      ...turnPosition,
      minWords: z.number().int().positive(),
      maxWords: z.number().int().positive(),
      deadline: z.iso.datetime(),
    })
    .strict(),
  z
    .object({
      type: z.literal('turnStage'),
      ...sequenced,
      turn: z.number().int().nonnegative(),
      stage: TurnStage,
    })
    .strict(),
  z
    .object({
      type: z.literal('textDelta'),
      ...sequenced,
      turn: z.number().int().nonnegative(),
      text: z.string(),
    })
    .strict(),
  z
    .object({
      type: z.literal('turnCompleted'),
      ...sequenced,
      ...turnPosition,
      text: z.string(),
      summary: z.string(),
      /** The speaker failed this turn: text and summary are the spec's error texts. */
      failed: z.boolean(),
      /**
       * The run was stopped while this turn was being written: its text is what was written
       * until then, its summary says it was cut off.
       */
      cutOff: z.boolean().default(false),
      writtenBy: WrittenBy,
      /** How a team made it; null: one completion wrote it (or the turn failed). */
      team: TeamNotes.nullable(),
    })
    .strict(),
  z
    .object({
      type: z.literal('judgingStarted'),
      ...sequenced,
      /** The judge about to read the debate. */
      judge: SpeakerModelRef,
    })
    .strict(),
  /** After the last turn: the judges' scorecard (absent when the judge failed). */
  z.object({ type: z.literal('verdictReady'), ...sequenced, verdict: Verdict }).strict(),
  z.object({ type: z.literal('runCompleted'), ...sequenced }).strict(),
  z.object({ type: z.literal('runFailed'), ...sequenced, message: z.string() }).strict(),
  /**
   * Its owner stopped it (`reason` 'owner'), or its person did not write their turn in time
   * ('timedOut'): no further turn and no judging. `freeDebateUsed`: whether it cost a free
   * debate (it does once a speaker's turn was complete; otherwise it was given back).
   */
  z
    .object({
      type: z.literal('runStopped'),
      ...sequenced,
      freeDebateUsed: z.boolean(),
      reason: RunStopReason.default('owner'),
    })
    .strict(),
]);
export type RunEvent = z.output<typeof RunEvent>;

const runId = z.string().min(1).max(128);
const userId = z.string().min(1).max(128);

/**
 * A run lives in the instance of the generation service that generates it, and is watched and
 * looked up there: its id begins with that instance's key (8 hex digits, then the rest of a
 * UUID), and `watch` and `runLookupContract` are addressed to that key. Undefined for an id
 * that no instance made.
 */
export function runInstanceKey(runId: string): string | undefined {
  return /^([0-9a-f]{8})-[0-9a-f]{4}-/.exec(runId)?.[1];
}

/**
 * Why `watch` refuses a run: none of that id is the user's on that instance (someone else's
 * run reads the same, so an id tells nobody whether it exists). The gateway says it as NOT_FOUND.
 */
export const NO_SUCH_RUN = 'No such debate run';

/** The most characters a person's turn may have (far above any round's word limit). */
export const MAX_PERSON_TURN_LENGTH = 20_000;

/** Why a person's turn was refused: too few words, too many, or the run awaits no such turn. */
export const TurnRefusal = z.enum(['too_short', 'too_long', 'not_your_turn']);
export type TurnRefusal = z.output<typeof TurnRefusal>;

export const generationContracts = {
  /**
   * Writes an example debate with the offline speaker, at once and outside any allowance, as a
   * completed run of the examples account (EXAMPLES_USER_ID), ready to save and share. Both
   * speakers must be the offline speaker: an example never costs a provider anything.
   */
  writeExample: defineRequest(
    subjects.generation.example.write,
    z.object({ settings: DebateSettings }).strict(),
    z.object({ runId: z.string().min(1) }).strict(),
  ),
  /**
   * Takes one free debate from the user's allowance, then starts the run; the run goes on
   * after the reply. Refused (nothing started, nothing taken) when no free debate is left, or
   * when the user has started the per-minute limit's worth already.
   */
  start: defineRequest(
    subjects.generation.run.start,
    z
      .object({
        userId,
        email: z.email().max(320),
        /** The token's `email_verified`, passed on to the usage service. */
        emailVerified: z.boolean().default(false),
        settings: DebateSettings,
        /** The saved debate this run is the side-swapped rematch of (its owner's, checked). */
        rematchOf: runId.optional(),
      })
      .strict(),
    z.union([
      z.object({ started: z.literal(true), runId }).strict(),
      z
        .object({
          started: z.literal(false),
          // The usage service's refusal, passed on.
          reason: ConsumeRefusal,
          message: z.string(),
        })
        .strict(),
      z
        .object({
          started: z.literal(false),
          // A model the catalogue does not have, given to this speaker: nothing was taken.
          reason: z.literal('unknown_model'),
          speaker: z.enum(['first', 'second']),
          message: z.string(),
        })
        .strict(),
    ]),
  ),
  /**
   * Stops the user's run (addressed to its instance, see runInstanceKey): the turn being written
   * is cut where it is, nothing more is written or judged. `stopped` false: it had ended already
   * and nothing changed. `freeDebateUsed`: whether the run cost a free debate (see RunEvent's
   * runStopped). Someone else's run reads as NO_SUCH_RUN.
   */
  stop: defineRequest(
    subjects.generation.run.stop,
    z.object({ runId, userId }).strict(),
    z.object({ stopped: z.boolean(), freeDebateUsed: z.boolean() }).strict(),
  ),
  /**
   * The person's text for the turn their run awaits (addressed to its instance, see
   * runInstanceKey). Refused, and nothing changed, when the run awaits no turn of theirs under
   * that number, or the text's words are outside the round's limits (PERSON_TURN_WORDS); the
   * message names the limit. Someone else's run reads as NO_SUCH_RUN.
   */
  submitTurn: defineRequest(
    subjects.generation.run.submitTurn,
    z
      .object({
        userId,
        runId,
        turn: z.number().int().nonnegative(),
        text: z.string().max(MAX_PERSON_TURN_LENGTH),
      })
      .strict(),
    z.union([
      z.object({ accepted: z.literal(true) }).strict(),
      z
        .object({
          accepted: z.literal(false),
          reason: TurnRefusal,
          message: z.string(),
        })
        .strict(),
    ]),
  ),
  /** Every event of the user's run from its start, then the live ones until it ends. */
  watch: defineStream(
    subjects.generation.run.watch,
    z.object({ runId, userId }).strict(),
    RunEvent,
  ),
} as const;

/**
 * A finished run as the debates service saves it: the settings and the speakers' turns. A run
 * its owner stopped once a speaker's turn was complete is finished too (`stopped`).
 */
export const FinishedRun = z
  .object({
    runId,
    topic: z.string(),
    first: SpeakerSettings,
    second: SpeakerSettings,
    turns: z.array(
      z
        .object({
          speaker: TurnSpeaker,
          round: z.number().int().min(0).max(4),
          text: z.string(),
          summary: z.string(),
          writtenBy: WrittenBy,
          team: TeamNotes.nullable().default(null),
        })
        .strict(),
    ),
    /** The judges' scorecard; null when the judge could not score it. */
    verdict: Verdict.nullable(),
    debateFormat: DebateFormat,
    moderatorEnabled: z.boolean(),
    /** The saved debate it is the rematch of; null: not a rematch. */
    rematchOf: runId.nullable(),
    /** Its owner stopped it before the end (it has no verdict); absent in a run kept before. */
    stopped: z.boolean().default(false),
  })
  .strict();
export type FinishedRun = z.output<typeof FinishedRun>;

export const runLookupContract = defineRequest(
  subjects.generation.run.get,
  z.object({ runId, userId }).strict(),
  /** null: no such run of this user, or it has not finished (completed, or stopped with a turn), or it was forgotten. */
  z.object({ run: FinishedRun.nullable() }).strict(),
);

/** The spec's texts of the generator. */
export const generationTexts = {
  /** The allowance's text, its number from the refill's one definition. */
  noFreeDebates: allowanceTexts.noFreeDebates,
  turnFailedText: 'An error occurred while generating the argument.',
  turnFailedSummary: 'Error generating response.',
  runFailed: 'An error occurred during the debate. Please try again.',
  /** Not the spec's: the summary of a turn cut off by Stop. */
  turnCutOff: 'Stopped before the end of this turn.',
  /** Not the spec's: its limit on starts is this platform's own (USAGE_STARTS_PER_MINUTE). */
  rateLimited: 'Too many debates started in a short time; try again in a minute',
  /** Not the spec's: a person's turn refused (see generationContracts.submitTurn). */
  turnTooShort: (min: number, roundTitle: string, words: number) =>
    `Your turn is too short: at least ${min} words for ${roundTitle} (you wrote ${words}).`,
  turnTooLong: (max: number, roundTitle: string, words: number) =>
    `Your turn is too long: at most ${max} words for ${roundTitle} (you wrote ${words}).`,
  notYourTurn: 'It is not your turn to speak.',
  /** Not the spec's: the catalogue is the operator's (MODEL_CATALOG). */
  unknownModel: (model: string) => `No model "${model}" is offered here; pick one from the list`,
} as const;

/** The generator's stance labels (spec §4 'Stance labels'). */
export function generatorStanceLabel(stance: number): string {
  if (stance <= -0.8) return 'Strongly Against';
  if (stance <= -0.3) return 'Against';
  if (stance <= 0.3) return 'Neutral';
  if (stance <= 0.8) return 'For';
  return 'Strongly For';
}
