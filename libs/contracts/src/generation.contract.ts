import { z } from 'zod';
import { defineRequest, defineStream } from './contract.js';
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
export const speakerModels = ['gpt-4', 'gpt-3.5-turbo'] as const;
/** Round 1, 2 and 3, in order. */
export const roundTitles = ['Constructive Arguments', 'Rebuttal', 'Summary'] as const;
export const speakerNames = ['First Speaker', 'Second Speaker'] as const;

export const RhetoricStyle = z.enum(rhetoricStyles);
export const DebateFormat = z.enum(debateFormats);
export const SpeakerModel = z.enum(speakerModels);
export type RhetoricStyle = z.output<typeof RhetoricStyle>;
export type DebateFormat = z.output<typeof DebateFormat>;
export type SpeakerModel = z.output<typeof SpeakerModel>;

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
    model: SpeakerModel,
    stance: Stance,
    rhetoricStyle: RhetoricStyle,
    /** Free-text personality hints for the speaker's prompt. */
    personality: z.string().max(500),
  })
  .strict();
export type SpeakerSettings = z.output<typeof SpeakerSettings>;

export const MAX_TOPIC_LENGTH = 500;

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
  })
  .strict();
export type DebateSettings = z.output<typeof DebateSettings>;

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

/** What a run reports, in order (`seq` from 0), from its start to its end. */
export const RunEvent = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('runStarted'),
      ...sequenced,
      runId: z.string(),
      topic: z.string(),
      /** Which speaker writes the debate: 'offline' is the deterministic one, clearly labelled. */
      speakerKind: z.enum(['openai', 'offline']),
      firstStance: Stance,
      secondStance: Stance,
    })
    .strict(),
  z.object({ type: z.literal('turnStarted'), ...sequenced, ...turnPosition }).strict(),
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
    })
    .strict(),
  z.object({ type: z.literal('runCompleted'), ...sequenced }).strict(),
  z.object({ type: z.literal('runFailed'), ...sequenced, message: z.string() }).strict(),
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

export const generationContracts = {
  /**
   * Takes one free debate from the user's allowance, then starts the run; the run goes on
   * after the reply. Refused (nothing started, nothing taken) when no free debate is left, or
   * when the user has started the per-minute limit's worth already.
   */
  start: defineRequest(
    subjects.generation.run.start,
    z.object({ userId, email: z.email().max(320), settings: DebateSettings }).strict(),
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
    ]),
  ),
  /** Every event of the user's run from its start, then the live ones until it ends. */
  watch: defineStream(
    subjects.generation.run.watch,
    z.object({ runId, userId }).strict(),
    RunEvent,
  ),
} as const;

/** A finished run as the debates service saves it: the settings and the speakers' turns. */
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
        })
        .strict(),
    ),
  })
  .strict();
export type FinishedRun = z.output<typeof FinishedRun>;

export const runLookupContract = defineRequest(
  subjects.generation.run.get,
  z.object({ runId, userId }).strict(),
  /** null: no such run of this user, or it has not completed, or it was forgotten. */
  z.object({ run: FinishedRun.nullable() }).strict(),
);

/** The spec's texts of the generator. */
export const generationTexts = {
  noFreeDebates:
    'No free debates left. Next free debate within 7 days or consider supporting us by purchasing a PRO account',
  turnFailedText: 'An error occurred while generating the argument.',
  turnFailedSummary: 'Error generating response.',
  runFailed: 'An error occurred during the debate. Please try again.',
  /** Not the spec's: its limit on starts is this platform's own (USAGE_STARTS_PER_MINUTE). */
  rateLimited: 'Too many debates started in a short time; try again in a minute',
} as const;

/** The generator's stance labels (spec §4 'Stance labels'). */
export function generatorStanceLabel(stance: number): string {
  if (stance <= -0.8) return 'Strongly Against';
  if (stance <= -0.3) return 'Against';
  if (stance <= 0.3) return 'Neutral';
  if (stance <= 0.8) return 'For';
  return 'Strongly For';
}
