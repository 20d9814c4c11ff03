import { z } from 'zod';
import { categoryNames } from './constants/index.js';
import { defineRequest } from './contract.js';
import { SpeakerModelRef } from './generation.contract.js';
import { SpeakerMode } from './model-catalog.js';
import { subjects } from './subjects.js';

const nonEmptyList = z.array(z.string().min(1)).min(1);

/**
 * The ten categories a debate can be filed under (categoryNames, in the order the ranking
 * filter lists them, spec §2). Every payload that carries a debate's category is validated
 * against this list, and the gateway answers the category names from it.
 */
export const DebateCategory = z.enum(categoryNames);
export type DebateCategory = z.output<typeof DebateCategory>;
export const debateCategories: readonly DebateCategory[] = DebateCategory.options;

/** A model a speaker can be given, and whether it is failing (GraphQL's SpeakerModel). */
export const SpeakerModel = SpeakerModelRef.extend({
  /** 'degraded' while its last turns all failed; it is still offered. */
  status: z.enum(['ok', 'degraded']),
  /** How it writes a speech: in one pass, or as a team (analyzer, writer, reviewer). */
  speakerMode: SpeakerMode,
}).strict();
export type SpeakerModel = z.output<typeof SpeakerModel>;

/** What the generation service offers: the settings of a debate and the built-in topics. */
export const GenerationCatalog = z
  .object({
    rhetoricStyles: nonEmptyList,
    debateFormats: nonEmptyList,
    /** The operator's models, then the offline speaker. */
    models: z.array(SpeakerModel).min(1),
    /** Whether speaker teams search the web for evidence (a search backend is configured). */
    searcher: z.boolean(),
    roundTitles: nonEmptyList,
    topics: nonEmptyList,
  })
  .strict();
export type GenerationCatalog = z.output<typeof GenerationCatalog>;

export const catalogContracts = {
  generationCatalog: defineRequest(
    subjects.generation.catalog.get,
    z.object({}).strict(),
    GenerationCatalog,
  ),
} as const;
