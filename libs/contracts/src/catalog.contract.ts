import { z } from 'zod';
import { categoryNames } from './constants/index.js';
import { defineRequest } from './contract.js';
import { SpeakerModelRef } from './generation.contract.js';
import { LocalModelStatus, SpeakerMode } from './model-catalog.js';
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

/** Where the local model (the embedded model server, LOCAL_MODEL_SERVER) is on its way to ready. */
/**
 * The local model as the engine page is told of it (GraphQL's LocalModel): the page says it is
 * on its way while it downloads or loads, and asks again until its model is offered.
 */
export const LocalModel = z
  .object({
    status: LocalModelStatus,
    /** Its name for people, e.g. "Qwen2.5 1.5B Instruct"; empty until its server has answered. */
    name: z.string(),
    /** While downloading: the fraction fetched, 0 to 1; null when the size is not known. */
    progress: z.number().min(0).max(1).nullable(),
  })
  .strict();
export type LocalModel = z.output<typeof LocalModel>;

/** What the generation service offers: the settings of a debate and the built-in topics. */
export const GenerationCatalog = z
  .object({
    rhetoricStyles: nonEmptyList,
    debateFormats: nonEmptyList,
    /** The local model once ready, the operator's models, then the offline speaker. */
    models: z.array(SpeakerModel).min(1),
    /** Whether speaker teams search the web for evidence (a search backend is configured). */
    searcher: z.boolean(),
    /**
     * The local model's state; null when the service has no LOCAL_MODEL_SERVER. A reply without
     * it (a service older than the gateway, mid-rollout) is read as null.
     */
    localModel: LocalModel.nullable().default(null),
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
