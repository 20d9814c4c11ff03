import type { SpeakerModel } from '@debate/contracts';
import { jsonrepair } from 'jsonrepair';
import type OpenAI from 'openai';
import { parse as parsePartial } from 'partial-json';
import { z } from 'zod';
import { systemMessage, userMessage } from './prompts.js';
import type { Speaker, SpeakerChunk, TurnRequest } from './speaker.js';

const FUNCTION_NAME = 'submit_argument';
export const MAX_TOKENS = 1000;

const Argument = z.object({ text: z.string().trim().min(1), summary: z.string().trim() });

/** Raw control characters (a model's literal newlines inside a JSON string) break JSON.parse. */
export function cleanControlCharacters(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/[\u0000-\u001F\u007F]+/g, ' ');
}

/** At most three sentences (spec: the summary is at most 3 sentences). */
export function threeSentences(summary: string): string {
  const sentences = summary.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [summary];
  return sentences.slice(0, 3).join('').trim();
}

/** The function's arguments: cleaned, parsed, and if that fails, parsed leniently (spec §8). */
export function parseArgument(raw: string): { text: string; summary: string } {
  const cleaned = cleanControlCharacters(raw);
  let value: unknown;
  try {
    value = JSON.parse(cleaned);
  } catch {
    value = JSON.parse(jsonrepair(cleaned));
  }
  const argument = Argument.parse(value);
  return { text: argument.text, summary: threeSentences(argument.summary) };
}

/** The `text` written so far, from incomplete arguments ('{"text": "Cities sho'). */
function partialText(raw: string): string | undefined {
  try {
    const value: unknown = parsePartial(cleanControlCharacters(raw));
    if (value && typeof value === 'object' && 'text' in value) {
      const text = (value as { text: unknown }).text;
      return typeof text === 'string' ? text : undefined;
    }
  } catch {
    // Not enough of it yet.
  }
  return undefined;
}

/**
 * A speaker backed by an OpenAI-compatible chat completion API: the round's instruction and the
 * debate so far, answered through a forced function call { text, summary } whose `text` is
 * streamed out while the model is still writing it.
 */
export class OpenAiSpeaker implements Speaker {
  readonly kind = 'openai' as const;

  constructor(
    private readonly client: OpenAI,
    /** The provider's model for each of the product's model choices. */
    private readonly models: Record<SpeakerModel, string>,
    /**
     * How long the stream may stay silent before the turn is given up: the SDK's timeout ends
     * when the response starts, and a stalled stream would otherwise hang the debate.
     */
    private readonly idleTimeoutMs = 30_000,
  ) {}

  async *speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    const stream = await this.client.chat.completions.create(
      {
        model: this.models[request.settings.model],
        max_tokens: MAX_TOKENS,
        stream: true,
        messages: [
          { role: 'system', content: systemMessage(request) },
          { role: 'user', content: userMessage(request) },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: FUNCTION_NAME,
              description: 'Submit the full argument and its summary (at most 3 sentences).',
              parameters: {
                type: 'object',
                properties: {
                  text: { type: 'string', description: 'The full argument.' },
                  summary: { type: 'string', description: 'At most 3 sentences.' },
                },
                required: ['text', 'summary'],
                additionalProperties: false,
              },
            },
          },
        ],
        tool_choice: { type: 'function', function: { name: FUNCTION_NAME } },
      },
      { signal },
    );
    // The SDK's timeout ends when the response starts: a stream that then stays silent is
    // given up after idleTimeoutMs (its request aborted), instead of hanging the debate.
    let silence: NodeJS.Timeout | undefined;
    let rearm: () => void = () => undefined;
    const stalled = new Promise<never>((_, reject) => {
      rearm = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          stream.controller.abort();
          reject(new Error(`The model wrote nothing for ${this.idleTimeoutMs} ms`));
        }, this.idleTimeoutMs);
      };
    });
    stalled.catch(() => undefined);
    rearm();
    const chunks = stream[Symbol.asyncIterator]();
    let raw = '';
    let shown = '';
    try {
      for (;;) {
        const next = await Promise.race([chunks.next(), stalled]);
        if (next.done) break;
        rearm();
        const piece = next.value.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments;
        if (!piece) continue;
        raw += piece;
        const text = partialText(raw);
        if (text !== undefined && text.length > shown.length && text.startsWith(shown)) {
          yield { type: 'delta', text: text.slice(shown.length) };
          shown = text;
        }
      }
    } finally {
      clearTimeout(silence);
      if (signal.aborted) stream.controller.abort();
    }
    signal.throwIfAborted();
    const argument = parseArgument(raw);
    if (argument.text.startsWith(shown) && argument.text.length > shown.length) {
      yield { type: 'delta', text: argument.text.slice(shown.length) };
    }
    yield { type: 'done', text: argument.text, summary: argument.summary };
  }
}
