import { z } from 'zod';
import { OFFLINE_MODEL_ID, OFFLINE_TEAM_MODEL_ID } from './constants/index.js';
import { ModelId } from './generation.contract.js';

/**
 * How a model is asked for its turn as { text, summary }: a forced function call (OpenAI and
 * servers with tool calling on), a `response_format` JSON schema (vLLM, llama.cpp, LM Studio,
 * Ollama), or JSON mode, the last resort. A refused mode falls back to the others in this order.
 */
export const structuredOutputModes = ['tool_call', 'json_schema', 'json_object'] as const;
export const StructuredOutputMode = z.enum(structuredOutputModes);
export type StructuredOutputMode = z.output<typeof StructuredOutputMode>;

/**
 * How a model writes a speech: `single`, one completion; `team`, the Agent4Debate team: an
 * analyzer plans the round, a writer writes from the plan, a reviewer checks it and the writer
 * revises once when it returns fixes.
 */
export const speakerModes = ['single', 'team'] as const;
export const SpeakerMode = z.enum(speakerModes);
export type SpeakerMode = z.output<typeof SpeakerMode>;

/**
 * How the offline speaker is offered: in one pass, as a team, or both (the offline speaker and
 * the offline speaker team, side by side: what the team-against-single benchmark runs).
 */
export const OfflineSpeakerMode = z.enum(['single', 'team', 'both']);
export type OfflineSpeakerMode = z.output<typeof OfflineSpeakerMode>;

/**
 * Variables a model's key may not be read from: the generation service's own settings
 * (OPENAI_API_KEY excepted: it is a key), and what Node and OpenTelemetry read.
 */
export const RESERVED_KEY_VARIABLE =
  /^(?:OPENAI_(?!API_KEY$)|MONGO_|NATS_|JETSTREAM_|OTEL_|NODE_|OPS_|OFFLINE_|DRAIN_|TURN_|LOG_|SEARCH_)|^(?:MODEL_CATALOG|PATH|HOME)$/;

/** One model of the operator's catalogue (MODEL_CATALOG): no key in it, only where to read one. */
export const ModelEntry = z
  .object({
    id: ModelId.refine((id) => id !== OFFLINE_MODEL_ID && id !== OFFLINE_TEAM_MODEL_ID, {
      message: `"${OFFLINE_MODEL_ID}" and "${OFFLINE_TEAM_MODEL_ID}" are the offline speaker's ids`,
    }),
    label: z.string().trim().min(1).max(60),
    /** The server's OpenAI-compatible base URL, e.g. http://ollama:11434/v1; unset, OpenAI's. */
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine((url) => !/^https?:\/\/[^/]*@/.test(url), {
        message: "may not hold credentials: name the key's variable in apiKeyEnv",
      })
      .optional(),
    /** The environment variable holding the server's key; unset, the server needs none. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be the name of an environment variable')
      .refine((name) => !RESERVED_KEY_VARIABLE.test(name), {
        message: 'is a variable the generation service, Node or OpenTelemetry reads as a setting',
      })
      .optional(),
    /** The model as the server names it (`model` in the request). */
    providerModel: z.string().trim().min(1).max(200),
    structuredOutput: StructuredOutputMode.default('tool_call'),
    /** One completion a speech, or the team (analyzer, writer, reviewer, revision). */
    speakerMode: SpeakerMode.default('single'),
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

/** Where the local model is: being fetched, being loaded, answering, or failed for good. */
export const localModelStatuses = ['downloading', 'loading', 'ready', 'failed'] as const;
export const LocalModelStatus = z.enum(localModelStatuses);
export type LocalModelStatus = z.output<typeof LocalModelStatus>;

/**
 * What the embedded model server's `GET /health` answers (libs/embedded-model): 200 when ready,
 * 503 before, with the same fields. The server writes it; the generation service, another
 * deployable, reads it with this schema (fields a later server adds are dropped, not refused).
 */
export const ModelHealth = z.object({
  status: LocalModelStatus,
  /** The model's id on the server: what a completion names as `model`. */
  model: z.string().min(1).max(200),
  /** Its name for people (GGUF `general.name`, or the download's), e.g. "Qwen2.5 1.5B Instruct". */
  name: z.string().max(200),
  /** While downloading: the fraction fetched, 0 to 1 (null when the size is unknown). */
  progress: z.number().min(0).max(1).nullable(),
  /** When failed: why. */
  reason: z.string().max(2000).nullable(),
  /** Requests being answered now, and waiting for their turn. */
  running: z.number().int().min(0),
  waiting: z.number().int().min(0),
});
export type ModelHealth = z.output<typeof ModelHealth>;
