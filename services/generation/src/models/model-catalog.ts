import { defaultModelIds, describeIssues, ModelCatalog, type ModelEntry } from '@debate/contracts';
import { ConfigError } from '@debate/nest';
import { z } from 'zod';

/** MODEL_CATALOG's value: a JSON array of models. */
export const modelCatalogEnv = z.preprocess((value, context) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    context.addIssue({
      code: 'custom',
      message: `must be a JSON array of models: ${(error as Error).message}`,
      input: value,
    });
    return z.NEVER;
  }
}, ModelCatalog.optional());

/** A model ready to be asked: its entry and the key read from the environment. */
export interface ConfiguredModel extends ModelEntry {
  readonly apiKey: string | undefined;
}

/** What the catalogue is built from (the generation service's environment). */
export interface ModelCatalogSettings {
  readonly MODEL_CATALOG?: readonly ModelEntry[] | undefined;
  readonly OPENAI_API_KEY?: string | undefined;
  readonly OPENAI_BASE_URL?: string | undefined;
  readonly OPENAI_MODEL_GPT4?: string | undefined;
  readonly OPENAI_MODEL_GPT35?: string | undefined;
}

/** The spec's two models on one OpenAI-compatible server (OPENAI_*), as before the catalogue. */
function defaultEntries(settings: ModelCatalogSettings): ModelEntry[] {
  const providerModel: Record<(typeof defaultModelIds)[number], string> = {
    'gpt-4': settings.OPENAI_MODEL_GPT4 ?? 'gpt-4o',
    'gpt-3.5-turbo': settings.OPENAI_MODEL_GPT35 ?? 'gpt-4o-mini',
  };
  return defaultModelIds.map((id) => ({
    id,
    label: id,
    ...(settings.OPENAI_BASE_URL ? { baseUrl: settings.OPENAI_BASE_URL } : {}),
    apiKeyEnv: 'OPENAI_API_KEY',
    providerModel: providerModel[id],
    structuredOutput: 'tool_call',
    speakerMode: 'single',
    maxTokens: 1000,
    maxConcurrentTurns: 8,
  }));
}

/**
 * The operator's models: MODEL_CATALOG when set; else the spec's two when OPENAI_API_KEY is;
 * else none (the offline speaker alone). Each key is read from the variable the entry names;
 * a named variable that is unset stops the start, naming it.
 */
export function configuredModels(
  settings: ModelCatalogSettings,
  secrets: Readonly<Record<string, string | undefined>>,
): ConfiguredModel[] {
  const parsed = ModelCatalog.safeParse(
    settings.MODEL_CATALOG ?? (settings.OPENAI_API_KEY ? defaultEntries(settings) : []),
  );
  if (!parsed.success) {
    throw new ConfigError(
      'generation',
      describeIssues(parsed.error).map((issue) => `MODEL_CATALOG: ${issue}`),
    );
  }
  const problems: string[] = [];
  const models = parsed.data.map((entry) => {
    const apiKey =
      entry.apiKeyEnv === 'OPENAI_API_KEY'
        ? (settings.OPENAI_API_KEY ?? secrets[entry.apiKeyEnv])
        : entry.apiKeyEnv
          ? secrets[entry.apiKeyEnv]
          : undefined;
    if (entry.apiKeyEnv && !apiKey) {
      problems.push(
        `MODEL_CATALOG: model "${entry.id}" reads its key from ${entry.apiKeyEnv}, which is not set`,
      );
    }
    return { ...entry, apiKey: apiKey || undefined };
  });
  if (problems.length > 0) throw new ConfigError('generation', problems);
  return models;
}
