import { MAX_JUDGE_PANEL, ModelId, OfflineSpeakerMode } from '@debate/contracts';
import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import { modelCatalogEnv } from './models/model-catalog.js';
import { DEFAULT_PERSON_TURN_TIMEOUT_MS } from './runs/debate-run.js';

const count = (fallback: number, description: string) =>
  optionalEnv(z.coerce.number().min(0).max(100_000).default(fallback)).describe(description);

/** What the generation service reads: the models, the speakers' settings, the pace of a debate. */
export const speakerEnvSchema = z.object({
  MODEL_CATALOG: modelCatalogEnv.describe(
    'The models the engine offers, as a JSON array (see "The model catalogue" below); unset, the spec\'s two on OPENAI_* when OPENAI_API_KEY is set. The offline speaker is always offered.',
  ),
  OPENAI_API_KEY: optionalEnv(z.string().min(1).optional()).describe(
    "The OpenAI key, never sent to a browser: without MODEL_CATALOG it offers the spec's two models; unset, only the offline speaker writes.",
  ),
  OPENAI_BASE_URL: optionalEnv(z.url().optional()).describe(
    "The OpenAI-compatible server of the spec's two models (without MODEL_CATALOG); unset, OpenAI's.",
  ),
  OPENAI_MODEL_GPT4: optionalEnv(z.string().min(1).default('gpt-4o')).describe(
    "The provider's model for `gpt-4` (without MODEL_CATALOG).",
  ),
  OPENAI_MODEL_GPT35: optionalEnv(z.string().min(1).default('gpt-4o-mini')).describe(
    "The provider's model for `gpt-3.5-turbo` (without MODEL_CATALOG).",
  ),
  OPENAI_TIMEOUT_MS: count(
    60_000,
    "How long one completion may take, in milliseconds (every catalogue model's).",
  ),
  OPENAI_IDLE_TIMEOUT_MS: count(
    30_000,
    'How long a started stream may stay silent, in milliseconds, before the turn is given up (every model).',
  ),
  OPENAI_MAX_RETRIES: optionalEnv(z.coerce.number().int().min(0).max(10).default(2)).describe(
    "How often a completion answered 429 or 5xx is retried (the SDK's backoff; every model).",
  ),
  LOCAL_MODEL_SERVER: optionalEnv(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      // An origin (and a proxy's path at most): /health and /v1 are appended to it.
      .refine((url) => {
        const parsed = new URL(url);
        return !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
      }, "must be the server's origin, without credentials, query or fragment")
      .optional(),
  ).describe(
    'The embedded model server\'s origin (e.g. http://127.0.0.1:8090; `npm start` and `start:cluster` set it): once its `/health` says ready, its model is offered first as `local` ("Local: <name>"), the default of both speakers, and judges unless JUDGE_MODELS names other judges. Unset, no local model.',
  ),
  JUDGE_MODELS: optionalEnv(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      )
      .pipe(z.array(ModelId))
      .optional(),
  ).describe(
    "The catalogue's models that may judge a debate, in order of preference: the first that did not speak in it judges (the first, if all did); `local` names the local model, `offline` the offline judge. Unset: the local model once it is ready (LOCAL_MODEL_SERVER), else the offline judge.",
  ),
  JUDGE_PANEL_SIZE: optionalEnv(
    z.coerce.number().int().min(1).max(MAX_JUDGE_PANEL).default(1),
  ).describe(
    "How many judges read each debate (fewer if fewer are named): the scorecard's judge, then the next in JUDGE_MODELS' order, one whose model spoke included. Each reads it twice, sides swapped; the others' verdicts are kept for the judges' record, and the scorecard stays the first judge's.",
  ),
  SEARCH_URL: optionalEnv(z.url({ protocol: /^https?$/ }).optional()).describe(
    "A search backend for the speaker teams' searcher: a SearXNG instance's base URL (asked `/search?q=…&format=json`; its JSON format must be enabled in its settings). Unset, no searcher runs.",
  ),
  SEARCH_API_KEY: optionalEnv(z.string().min(1).optional()).describe(
    'Sent to the search backend as `Authorization: Bearer …` (a search API behind a gateway); never sent to a browser.',
  ),
  SEARCH_TIMEOUT_MS: optionalEnv(z.coerce.number().min(100).max(60_000).default(8_000)).describe(
    'How long one search may take, in milliseconds.',
  ),
  OFFLINE_SPEAKER_MODE: optionalEnv(OfflineSpeakerMode.default('single')).describe(
    "How the offline speaker writes a speech: `single` (one pass), `team` (its deterministic analyzer, writer, reviewer and revision, as a catalogue model's `speakerMode: 'team'`), or `both`: the offline speaker and the 'Offline speaker team' (`offline-team`) side by side, as `bench:team` runs them.",
  ),
  OFFLINE_TOKENS_PER_SECOND: count(30, 'How fast the offline speaker writes, in tokens a second.'),
  OFFLINE_FIRST_TOKEN_MS: count(
    200,
    "How long the offline speaker takes before a turn's first token, in milliseconds.",
  ),
  TURN_PAUSE_MS: count(1000, "The pause between turns, in milliseconds (the spec's 1 s)."),
  PERSON_TURN_TIMEOUT_MS: optionalEnv(
    z.coerce
      .number()
      .int()
      .min(1_000)
      .max(24 * 60 * 60 * 1000)
      .default(DEFAULT_PERSON_TURN_TIMEOUT_MS),
  ).describe(
    "How long a debate against a model waits for its person's turn, in milliseconds, before it ends as stopped (what was written is kept): 15 minutes by default, at most a day.",
  ),
});
export type SpeakerEnv = z.output<typeof speakerEnvSchema>;

export const generationEnvSchema = serviceEnvSchema.extend(speakerEnvSchema.shape);
