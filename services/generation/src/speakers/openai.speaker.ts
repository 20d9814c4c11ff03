import { jsonrepair } from 'jsonrepair';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { parse as parsePartial } from 'partial-json';
import { z } from 'zod';
import { structuredOutputModes, type StructuredOutputMode } from '@debate/contracts';
import { systemMessage, userMessage } from './prompts.js';
import type { Speaker, SpeakerChunk, TurnRequest } from './speaker.js';

const FUNCTION_NAME = 'submit_argument';

const Argument = z.object({ text: z.string().trim().min(1), summary: z.string().trim() });

const argumentSchema = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'The full argument.' },
    summary: { type: 'string', description: 'At most 3 sentences.' },
  },
  required: ['text', 'summary'],
  additionalProperties: false,
} as const;

/** Raw control characters (a model's literal newlines inside a JSON string) break JSON.parse. */
export function cleanControlCharacters(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/[\u0000-\u001F\u007F]+/g, ' ');
}

/** A JSON answer some models fence as Markdown (```json … ```): the JSON inside. */
function unfenced(raw: string): string {
  return raw.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
}

/** At most three sentences (spec: the summary is at most 3 sentences). */
export function threeSentences(summary: string): string {
  const sentences = summary.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [summary];
  return sentences.slice(0, 3).join('').trim();
}

/** The answer's { text, summary }: cleaned, parsed, and if that fails, parsed leniently (spec §8). */
export function parseArgument(raw: string): { text: string; summary: string } {
  const cleaned = cleanControlCharacters(unfenced(raw));
  let value: unknown;
  try {
    value = JSON.parse(cleaned);
  } catch {
    value = JSON.parse(jsonrepair(cleaned));
  }
  const argument = Argument.parse(value);
  return { text: argument.text, summary: threeSentences(argument.summary) };
}

/** The `text` written so far, from an incomplete answer ('{"text": "Cities sho'). */
function partialText(raw: string): string | undefined {
  try {
    const value: unknown = parsePartial(cleanControlCharacters(unfenced(raw)));
    if (value && typeof value === 'object' && 'text' in value) {
      const text = (value as { text: unknown }).text;
      return typeof text === 'string' ? text : undefined;
    }
  } catch {
    // Not enough of it yet.
  }
  return undefined;
}

/** The server answered, but not in the mode asked (a forced function call it did not make). */
class ModeIgnoredError extends Error {}

/** What in a server's refusal (an HTTP 400) names each mode. */
const refusalPatterns: Record<StructuredOutputMode, RegExp> = {
  tool_call: /tool|function/i,
  json_schema: /response_format|json_schema|schema/i,
  json_object: /response_format|json_object|json mode/i,
};

/** Whether the error is the server refusing `mode`: an error naming it, or the mode ignored. */
export function refusesMode(error: unknown, mode: StructuredOutputMode): boolean {
  if (error instanceof ModeIgnoredError) return true;
  // A 400 as a rule; llama-server words its refusal of tools as a 500 naming its --jinja flag.
  return (
    error instanceof OpenAI.APIError &&
    (error.status === 400 || error.status === 422 || error.status === 500) &&
    refusalPatterns[mode].test(error.message)
  );
}

/** The model as the speaker asks for it. */
export interface OpenAiModel {
  readonly id: string;
  readonly providerModel: string;
  readonly structuredOutput: StructuredOutputMode;
  readonly maxTokens: number;
}

export interface OpenAiSpeakerOptions {
  /**
   * How long the stream may stay silent before the turn is given up: the SDK's timeout ends
   * when the response starts, and a stalled stream would otherwise hang the debate.
   */
  readonly idleTimeoutMs: number;
  /** Told when the server refused a mode and the next one is used from now on. */
  readonly onModeRefused?: (
    refused: StructuredOutputMode,
    next: StructuredOutputMode,
    reason: string,
  ) => void;
}

/**
 * A speaker backed by one model of an OpenAI-compatible chat completion API: the round's
 * instruction and the debate so far, answered as { text, summary } in the model's structured
 * output mode, the `text` streamed out while the model is still writing it. A server that
 * refuses the mode is asked once in the next one (tool_call, json_schema, json_object, and
 * round again), which is then remembered for this model.
 */
export class OpenAiSpeaker implements Speaker {
  private mode: StructuredOutputMode;

  constructor(
    private readonly client: OpenAI,
    private readonly model: OpenAiModel,
    private readonly options: OpenAiSpeakerOptions,
  ) {
    this.mode = model.structuredOutput;
  }

  /** The mode the next turn is asked in. */
  get structuredOutput(): StructuredOutputMode {
    return this.mode;
  }

  async *speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    // The mode in use first, then each other once, in the order after it.
    const start = structuredOutputModes.indexOf(this.mode);
    const order = structuredOutputModes.map(
      (_, index) => structuredOutputModes[(start + index) % structuredOutputModes.length],
    ) as StructuredOutputMode[];
    for (const [index, mode] of order.entries()) {
      let spoke = false;
      try {
        for await (const chunk of this.speakIn(mode, request, signal)) {
          spoke = true;
          yield chunk;
        }
        return;
      } catch (error) {
        const next = order[index + 1];
        if (spoke || signal.aborted || !next || !refusesMode(error, mode)) throw error;
        // Another turn of this model may have moved on already: move only from where it was.
        if (this.mode === mode) {
          this.mode = next;
          this.options.onModeRefused?.(mode, next, (error as Error).message);
        }
      }
    }
  }

  private request(mode: StructuredOutputMode, request: TurnRequest) {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model.providerModel,
      max_tokens: this.model.maxTokens,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: systemMessage(request, mode) },
        { role: 'user', content: userMessage(request) },
      ],
    };
    if (mode === 'tool_call') {
      return {
        ...body,
        tools: [
          {
            type: 'function' as const,
            function: {
              name: FUNCTION_NAME,
              description: 'Submit the full argument and its summary (at most 3 sentences).',
              parameters: argumentSchema,
            },
          },
        ],
        tool_choice: { type: 'function' as const, function: { name: FUNCTION_NAME } },
      };
    }
    if (mode === 'json_schema') {
      return {
        ...body,
        response_format: {
          type: 'json_schema' as const,
          json_schema: { name: 'argument', strict: true, schema: argumentSchema },
        },
      };
    }
    return { ...body, response_format: { type: 'json_object' as const } };
  }

  private async *speakIn(
    mode: StructuredOutputMode,
    request: TurnRequest,
    signal: AbortSignal,
  ): AsyncIterable<SpeakerChunk> {
    const stream = await this.client.chat.completions.create(this.request(mode, request), {
      signal,
    });
    // The SDK's timeout ends when the response starts: a stream that then stays silent is
    // given up after idleTimeoutMs (its request aborted), instead of hanging the debate.
    const { idleTimeoutMs } = this.options;
    let silence: NodeJS.Timeout | undefined;
    let rearm: () => void = () => undefined;
    const stalled = new Promise<never>((_, reject) => {
      rearm = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          stream.controller.abort();
          reject(new Error(`The model wrote nothing for ${idleTimeoutMs} ms`));
        }, idleTimeoutMs);
      };
    });
    stalled.catch(() => undefined);
    rearm();
    const chunks = stream[Symbol.asyncIterator]();
    let raw = '';
    let shown = '';
    let serverModel: string | null = null;
    let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
    try {
      for (;;) {
        const next = await Promise.race([chunks.next(), stalled]);
        if (next.done) break;
        rearm();
        const chunk = next.value;
        if (chunk.model) serverModel = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        const delta = chunk.choices[0]?.delta;
        const piece =
          mode === 'tool_call' ? delta?.tool_calls?.[0]?.function?.arguments : delta?.content;
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
    if (mode === 'tool_call' && raw === '') {
      throw new ModeIgnoredError(
        'The server answered without calling the function (tool_choice ignored)',
      );
    }
    const argument = parseArgument(raw);
    if (argument.text.startsWith(shown) && argument.text.length > shown.length) {
      yield { type: 'delta', text: argument.text.slice(shown.length) };
    }
    yield {
      type: 'done',
      text: argument.text,
      summary: argument.summary,
      serverModel,
      tokensIn: usage?.prompt_tokens ?? null,
      tokensOut: usage?.completion_tokens ?? null,
    };
  }
}
