import { z } from 'zod';
import { DebateCategory } from './catalog.contract.js';
import { speakerNames } from './constants/index.js';
import { defineEvent, defineRequest } from './contract.js';
import {
  DebateFormat,
  FinishedRun,
  ModelId,
  RhetoricStyle,
  Stance,
  TeamNotes,
  Verdict,
  WrittenBy,
} from './generation.contract.js';
import { subjects } from './subjects.js';

/** A saved debate's id (the id of the run it was saved from); its public copy keeps it. */
export const DebateId = z.string().min(1).max(128);
const userId = z.string().min(1).max(128);

/** One to three of the ten categories, each once (spec §5). */
export const DebateCategories = z
  .array(DebateCategory)
  .min(1, 'Choose at least one category')
  .max(3, 'Choose at most 3 categories')
  .refine((list) => new Set(list).size === list.length, 'A category is chosen twice');

export const SpeakerInfo = z
  .object({
    /** The catalogue id the speaker was given. */
    name: ModelId,
    stance: Stance,
    rhetoricStyle: RhetoricStyle,
    /** What really wrote its rounds; null for a debate saved before provenance was kept. */
    writtenBy: WrittenBy.nullable().default(null),
    /**
     * Whether it was given personality hints (not the hints themselves): the leaderboard rates
     * only debates without. Null for a debate saved before this was kept.
     */
    personalityHints: z.boolean().nullable().default(null),
  })
  .strict();

export const DebateRound = z
  .object({
    speaker: z.enum(speakerNames),
    round: z.number().int().min(1).max(3),
    text: z.string(),
    summary: z.string(),
    /** What really wrote it; null for a debate saved before provenance was kept. */
    writtenBy: WrittenBy.nullable().default(null),
    /** How a speaker team made it; null: one completion wrote it (or saved before teams). */
    team: TeamNotes.nullable().default(null),
  })
  .strict();

/**
 * A debate's `isPro`, which a debates or community service of the last version still answers: a
 * gateway of this version accepts it and drops it. The author's plan is stored with the debate
 * and announced with it (SharedDebate), not answered.
 */
const answeredIsPro = z
  .boolean()
  .transform(() => undefined)
  .optional();

/** A saved debate (spec §3 'Private debate'), as the services answer it. */
export const Debate = z
  .object({
    id: DebateId,
    userId,
    userDisplayName: z.string(),
    topic: z.string(),
    categories: DebateCategories,
    timestamp: z.iso.datetime(),
    sharedAt: z.iso.datetime().nullable(),
    views: z.number().int().nonnegative(),
    upvotes: z.number().int().nonnegative(),
    downvotes: z.number().int().nonnegative(),
    isPublic: z.boolean(),
    isPro: answeredIsPro,
    model1: SpeakerInfo,
    model2: SpeakerInfo,
    rounds: z.array(DebateRound),
    /** The judges' scorecard; null when it was not judged (saved before judging, or it failed). */
    verdict: Verdict.nullable().default(null),
    /** The format it was run in; null for a debate saved before the format was kept. */
    debateFormat: DebateFormat.nullable().default(null),
    moderatorEnabled: z.boolean().nullable().default(null),
    /**
     * The debate this one is the rematch of (the same motion, format and styles, each model on
     * the other side); null: not a rematch. The two make a side-swapped pair.
     */
    rematchOf: DebateId.nullable().default(null),
    /**
     * Its author stopped it before the end: it has no verdict, and its last round may be cut
     * off. Absent in a debate saved before Stop existed (and so not stopped).
     */
    stopped: z.boolean().default(false),
  })
  .strict();
export type Debate = z.output<typeof Debate>;

/** How long a completed run that was not saved is kept for its user. */
export const KEPT_RUN_DAYS = 7;

/**
 * A completed run not saved yet, as the engine shows it again: its content as a saved debate
 * would have it (the moderator's turns aside), before categories and a save time.
 */
export const UnsavedDebate = Debate.pick({
  topic: true,
  model1: true,
  model2: true,
  rounds: true,
  verdict: true,
  debateFormat: true,
  moderatorEnabled: true,
  rematchOf: true,
  stopped: true,
})
  .extend({ runId: DebateId })
  .strict();
export type UnsavedDebate = z.output<typeof UnsavedDebate>;

const OwnDebate = z.object({ userId, debateId: DebateId }).strict();
const DebateOrNone = z.object({ debate: Debate.nullable() }).strict();

export const debatesContracts = {
  /** Saves a completed run of the user's as a private debate (once per run). */
  save: defineRequest(
    subjects.debates.debate.save,
    z
      .object({
        userId,
        userDisplayName: z.string().max(200).nullable(),
        /** The author's plan (their user's isPro), stored with the debate. */
        isPro: z.boolean(),
        runId: DebateId,
        categories: DebateCategories,
      })
      .strict(),
    z.union([
      z.object({ saved: z.literal(true), debate: Debate }).strict(),
      z
        .object({
          saved: z.literal(false),
          reason: z.enum(['run_not_found', 'already_saved']),
          message: z.string(),
        })
        .strict(),
    ]),
  ),
  /** The user's debates, newest or oldest first, searched by topic and filtered by category. */
  list: defineRequest(
    subjects.debates.debate.list,
    z
      .object({
        userId,
        search: z.string().max(200).optional(),
        category: DebateCategory.optional(),
        order: z.enum(['newest', 'oldest']),
        after: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(50),
      })
      .strict(),
    z
      .object({
        debates: z.array(Debate),
        total: z.number().int().nonnegative(),
        next: z.string().nullable(),
      })
      .strict(),
  ),
  /** One of the user's debates (null when it is not theirs, or does not exist). */
  get: defineRequest(subjects.debates.debate.get, OwnDebate, DebateOrNone),
  /**
   * The user's last generated debate while it is not saved and can still be (on its generation
   * instance, or kept here): what the engine shows again after a reload, its content included.
   * Null otherwise.
   */
  unsaved: defineRequest(
    subjects.debates.debate.unsaved,
    z.object({ userId }).strict(),
    z.object({ run: UnsavedDebate.nullable() }).strict(),
  ),
  /**
   * Keeps the user's latest completed run (the generation service sends it as it completes)
   * until it is saved or their next replaces it, for at most KEPT_RUN_DAYS: saving it and
   * showing it again then need no generation instance, which may have restarted since.
   */
  keepRun: defineRequest(
    subjects.debates.run.keep,
    z.object({ userId, run: FinishedRun }).strict(),
    z.object({ kept: z.boolean() }).strict(),
  ),
  share: defineRequest(subjects.debates.debate.share, OwnDebate, DebateOrNone),
  unshare: defineRequest(subjects.debates.debate.unshare, OwnDebate, DebateOrNone),
  delete: defineRequest(
    subjects.debates.debate.delete,
    OwnDebate,
    z.object({ deleted: z.boolean() }).strict(),
  ),
} as const;

/**
 * A debate as it is announced when it goes public: with its author's plan when it was saved
 * (spec §3), which the community stores on its copy.
 */
export const SharedDebate = Debate.extend({ isPro: z.boolean() }).strict();
export type SharedDebate = z.output<typeof SharedDebate>;

/** A debate went public (or public again): the community keeps its copy (id = event id). */
export const debateSharedEvent = defineEvent(
  subjects.debates.debate.shared,
  z.object({ debate: SharedDebate }).strict(),
);
/** A debate is no longer public (unshared or deleted). */
export const debateUnsharedEvent = defineEvent(
  subjects.debates.debate.unshared,
  z.object({ debateId: DebateId, at: z.iso.datetime() }).strict(),
);
