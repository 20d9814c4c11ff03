import { z } from 'zod';
import { ModelId, OFFLINE_MODEL_ID } from './generation.contract.js';

/**
 * How a model is asked for its turn as { text, summary }: a forced function call (OpenAI and
 * servers with tool calling on), a `response_format` JSON schema (vLLM, llama.cpp, LM Studio,
 * Ollama), or JSON mode. A refused mode falls back to the next in this order (and round again).
 */
export const structuredOutputModes = ['tool_call', 'json_schema', 'json_object'] as const;
export const StructuredOutputMode = z.enum(structuredOutputModes);
export type StructuredOutputMode = z.output<typeof StructuredOutputMode>;

/** One model of the operator's catalogue (MODEL_CATALOG): no key in it, only where to read one. */
export const ModelEntry = z
  .object({
    id: ModelId.refine((id) => id !== OFFLINE_MODEL_ID, {
      message: `"${OFFLINE_MODEL_ID}" is the offline speaker's id`,
    }),
    label: z.string().trim().min(1).max(60),
    /** The server's OpenAI-compatible base URL, e.g. http://ollama:11434/v1; unset, OpenAI's. */
    baseUrl: z.url().optional(),
    /** The environment variable holding the server's key; unset, the server needs none. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be the name of an environment variable')
      .optional(),
    /** The model as the server names it (`model` in the request). */
    providerModel: z.string().trim().min(1).max(200),
    structuredOutput: StructuredOutputMode.default('tool_call'),
    /** The most tokens a turn may take (`max_tokens`). */
    maxTokens: z.number().int().min(16).max(200_000).default(1000),
    /** How many turns it may write at once over every debate of this instance; more wait. */
    maxConcurrentTurns: z.number().int().min(1).max(1000).default(8),
  })
  .strict();
export type ModelEntry = z.output<typeof ModelEntry>;

export const ModelCatalog = z
  .array(ModelEntry)
  .max(50)
  .refine((entries) => new Set(entries.map((entry) => entry.id)).size === entries.length, {
    message: 'a model id is listed twice',
  });
