import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';

const count = (fallback: number) =>
  optionalEnv(z.coerce.number().min(0).max(100_000).default(fallback));

/** What the generation service reads: the speakers' settings and the pace of a debate. */
export const speakerEnvSchema = z.object({
  /** The OpenAI key; unset: the offline speaker writes the debates. Never sent to a browser. */
  OPENAI_API_KEY: optionalEnv(z.string().min(1).optional()),
  /** Any OpenAI-compatible server. */
  OPENAI_BASE_URL: optionalEnv(z.url().optional()),
  /** The provider's model for each of the product's model choices. */
  OPENAI_MODEL_GPT4: optionalEnv(z.string().min(1).default('gpt-4o')),
  OPENAI_MODEL_GPT35: optionalEnv(z.string().min(1).default('gpt-4o-mini')),
  /** How long one completion may take, and how often a 429/5xx is retried (the SDK's backoff). */
  OPENAI_TIMEOUT_MS: count(60_000),
  /** How long a started stream may stay silent before the turn is given up. */
  OPENAI_IDLE_TIMEOUT_MS: count(30_000),
  OPENAI_MAX_RETRIES: optionalEnv(z.coerce.number().int().min(0).max(10).default(2)),
  OFFLINE_TOKENS_PER_SECOND: count(30),
  OFFLINE_FIRST_TOKEN_MS: count(200),
  /** The pause between turns (the spec's 1 s). */
  TURN_PAUSE_MS: count(1000),
});
export type SpeakerEnv = z.output<typeof speakerEnvSchema>;

export const generationEnvSchema = serviceEnvSchema.extend(speakerEnvSchema.shape);
