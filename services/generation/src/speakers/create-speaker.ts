import type { PinoLoggerService } from '@debate/nest';
import OpenAI from 'openai';
import type { SpeakerEnv } from '../generation.config.js';
import { OfflineSpeaker } from './offline.speaker.js';
import { OpenAiSpeaker } from './openai.speaker.js';
import type { Speaker } from './speaker.js';

/** OpenAI (or any compatible server) when a key is configured; otherwise the offline speaker. */
export function createSpeaker(env: Partial<SpeakerEnv>, logger: PinoLoggerService): Speaker {
  if (env.OPENAI_API_KEY) {
    const client = new OpenAI({
      apiKey: env.OPENAI_API_KEY,
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      timeout: env.OPENAI_TIMEOUT_MS ?? 60_000,
      maxRetries: env.OPENAI_MAX_RETRIES ?? 2,
    });
    logger.log(`Debates are written through ${env.OPENAI_BASE_URL ?? 'the OpenAI API'}`);
    return new OpenAiSpeaker(
      client,
      {
        'gpt-4': env.OPENAI_MODEL_GPT4 ?? 'gpt-4o',
        'gpt-3.5-turbo': env.OPENAI_MODEL_GPT35 ?? 'gpt-4o-mini',
      },
      env.OPENAI_IDLE_TIMEOUT_MS ?? 30_000,
    );
  }
  logger.log('Debates are written by the offline speaker (no OPENAI_API_KEY)');
  return new OfflineSpeaker({
    tokensPerSecond: env.OFFLINE_TOKENS_PER_SECOND ?? 30,
    firstTokenDelayMs: env.OFFLINE_FIRST_TOKEN_MS ?? 200,
  });
}
