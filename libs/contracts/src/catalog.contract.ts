import { z } from 'zod';
import { defineRequest } from './contract.js';
import { subjects } from './subjects.js';

const nonEmptyList = z.array(z.string().min(1)).min(1);

/** What the generation service offers: the settings of a debate and the built-in topics. */
export const GenerationCatalog = z
  .object({
    rhetoricStyles: nonEmptyList,
    debateFormats: nonEmptyList,
    models: nonEmptyList,
    roundTitles: nonEmptyList,
    topics: nonEmptyList,
  })
  .strict();
export type GenerationCatalog = z.output<typeof GenerationCatalog>;

/** The categories a debate can be filed under, owned by the community service. */
export const CategoryList = z.object({ categories: nonEmptyList }).strict();
export type CategoryList = z.output<typeof CategoryList>;

export const catalogContracts = {
  generationCatalog: defineRequest(
    subjects.generation.catalog.get,
    z.object({}).strict(),
    GenerationCatalog,
  ),
  categories: defineRequest(
    subjects.community.categories.list,
    z.object({}).strict(),
    CategoryList,
  ),
} as const;
