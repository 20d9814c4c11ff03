import { jsonrepair } from 'jsonrepair';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { parse as parsePartial } from 'partial-json';
import { z } from 'zod';
import { structuredOutputModes, type StructuredOutputMode } from '@debate/contracts';
import { systemMessage, userMessage } from './prompts.js';
import type { SpeakerChunk, TurnRequest } from './speaker.js';
import { Analysis, analysisSchema, analyzerSystem, analyzerUser } from './team/analyzer.prompt.js';
import { Review, reviewerSystem, reviewerUser, reviewSchema } from './team/reviewer.prompt.js';
import type { Answered, TeamMembers } from './team/team.speaker.js';

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
function cleanControlCharacters(raw: string): string {
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
  const argument = parseJson(raw, Argument);
  return { text: argument.text, summary: threeSentences(argument.summary) };
}

/** A JSON answer (fenced or with raw control characters, repaired if it must be) read by `schema`. */
function parseJson<T>(raw: string, schema: z.ZodType<T>): T {
  const cleaned = cleanControlCharacters(unfenced(raw));
  let value: unknown;
  try {
    value = JSON.parse(cleaned);
  } catch {
    value = JSON.parse(jsonrepair(cleaned));
  }
  return schema.parse(value);
}

/**
 * One structured answer asked of the model: the function it is forced to call (or the JSON
 * schema it answers by), its messages in a mode, and how its answer is read. A task that
 * `streams` has its `text` shown as it is written (the speech).
 */
interface Task<T> {
  readonly functionName: string;
  readonly description: string;
  readonly schema: Record<string, unknown>;
  readonly system: (mode: StructuredOutputMode) => string;
  readonly user: string;
  readonly parse: (raw: string) => T;
  readonly streams: boolean;
}

function argumentTask(request: TurnRequest): Task<{ text: string; summary: string }> {
  return {
    functionName: 'submit_argument',
    description: 'Submit the full argument and its summary (at most 3 sentences).',
    schema: argumentSchema,
    system: (mode) => systemMessage(request, mode),
    user: userMessage(request),
    parse: parseArgument,
    streams: true,
  };
}

/** What one task's attempt yields: the text as it comes (a streamed task), then the answer. */
type TaskChunk<T> =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'answer'; readonly value: T; readonly serverModel: string | null };

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

/**
 * A turn the speaker could not write, with the tokens the server still counted for it (its
 * attempts' usage; null when it reported none).
 */
export class SpeakerError extends Error {
  constructor(
    cause: unknown,
    readonly tokensIn: number | null,
    readonly tokensOut: number | null,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'SpeakerError';
  }
}

/** What in a server's error names each mode. */
const modeTerms: Record<StructuredOutputMode, RegExp> = {
  tool_call: /\btools?\b|tool_choice|function call/i,
  json_schema: /response_format|json_schema/i,
  json_object: /response_format|json_object|json mode/i,
};
/** What says it is a refusal of a feature, not a complaint about this request's content. */
const refusalTerms =
  /not supported|unsupported|does not support|requires|must be|not allowed|not available|only .+ (is|are) supported/i;
/** A request too long for the model names the functions too: it is not a refusal of them. */
const tooLong = /context length|context_length|too long|too many tokens/i;

/**
 * Whether the error is the server refusing `mode`: the mode ignored, or an error (400 or 422 as
 * a rule; llama-server words its refusal of tools as a 500 naming its --jinja flag) that names
 * the mode and says it is not supported, required or must be otherwise.
 */
export function refusesMode(error: unknown, mode: StructuredOutputMode): boolean {
  if (error instanceof ModeIgnoredError) return true;
  if (!(error instanceof OpenAI.APIError)) return false;
  if (error.status !== 400 && error.status !== 422 && error.status !== 500) return false;
  return (
    modeTerms[mode].test(error.message) &&
    refusalTerms.test(error.message) &&
    !tooLong.test(error.message)
  );
}

/** A server that wants `max_completion_tokens` (OpenAI's reasoning models refuse `max_tokens`). */
function refusesMaxTokens(error: unknown): boolean {
  return (
    error instanceof OpenAI.APIError &&
    error.status === 400 &&
    /max_completion_tokens/.test(error.message)
  );
}

/** The longest model id kept from a server's answer (the contracts' WrittenBy.serverModel). */
const MAX_SERVER_MODEL_LENGTH = 200;

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
  /** Told when the server wants max_completion_tokens, used from now on. */
  readonly onTokenLimitRefused?: (reason: string) => void;
}

/** The tokens a turn's attempts were counted, as the servers' usage reported them. */
interface Spent {
  tokensIn: number | null;
  tokensOut: number | null;
}

/**
 * A speaker backed by one model of an OpenAI-compatible chat completion API: the round's
 * instruction and the debate so far, answered as { text, summary } in the model's structured
 * output mode, the `text` streamed out while the model is still writing it. A server that
 * refuses the mode is asked once in the next one (the others in the order tool_call,
 * json_schema, json_object), which is then remembered for this model; one that wants max_completion_tokens
 * instead of max_tokens gets it, remembered too.
 */
export class OpenAiSpeaker implements TeamMembers {
  private mode: StructuredOutputMode;
  private tokenLimit: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

  constructor(
    private readonly client: OpenAI,
    private readonly model: OpenAiModel,
    private readonly options: OpenAiSpeakerOptions,
  ) {
    this.mode = model.structuredOutput;
  }

  async *speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    const spent: Spent = { tokensIn: null, tokensOut: null };
    for await (const chunk of this.ask(argumentTask(request), signal, spent)) {
      if (chunk.type === 'delta') {
        yield chunk;
        continue;
      }
      yield {
        type: 'done',
        ...chunk.value,
        serverModel: chunk.serverModel,
        tokensIn: spent.tokensIn,
        tokensOut: spent.tokensOut,
      };
    }
  }

  analyze(request: TurnRequest, signal: AbortSignal): Promise<Answered<Analysis>> {
    return this.answer(
      {
        functionName: 'submit_analysis',
        description: "Submit the opponent's standing claims, the clash points and the plan.",
        schema: analysisSchema,
        system: (mode) => analyzerSystem(request, mode),
        user: analyzerUser(request),
        parse: (raw) => parseJson(raw, Analysis),
        streams: false,
      },
      signal,
    );
  }

  review(
    request: TurnRequest,
    plan: string,
    draft: string,
    signal: AbortSignal,
  ): Promise<Answered<Review>> {
    return this.answer(
      {
        functionName: 'submit_review',
        description: 'Accept the draft, or submit at most three concrete fixes.',
        schema: reviewSchema,
        system: (mode) => reviewerSystem(request, mode),
        // A token is about three quarters of a word.
        user: reviewerUser(request, plan, draft, Math.round(this.model.maxTokens * 0.75)),
        parse: (raw) => parseJson(raw, Review),
        streams: false,
      },
      signal,
    );
  }

  /** A task answered whole, with what the server counted for it (also when it fails). */
  private async answer<T>(task: Task<T>, signal: AbortSignal): Promise<Answered<T>> {
    const spent: Spent = { tokensIn: null, tokensOut: null };
    for await (const chunk of this.ask(task, signal, spent)) {
      if (chunk.type === 'answer') {
        return { value: chunk.value, serverModel: chunk.serverModel, ...spent };
      }
    }
    throw new SpeakerError(new Error('The model gave no answer'), spent.tokensIn, spent.tokensOut);
  }

  /**
   * Asks the model for `task`'s answer in its structured output mode, falling back once to
   * each other mode it refuses; the server's usage is added to `spent`.
   */
  private async *ask<T>(
    task: Task<T>,
    signal: AbortSignal,
    spent: Spent,
  ): AsyncIterable<TaskChunk<T>> {
    // The mode in use first, then each other once, in order of preference (JSON mode last).
    const order = [this.mode, ...structuredOutputModes.filter((mode) => mode !== this.mode)];
    let tokenLimitTried = false;
    for (let index = 0; index < order.length;) {
      const mode = order[index] as StructuredOutputMode;
      let spoke = false;
      try {
        for await (const chunk of this.askIn(mode, task, signal, spent)) {
          spoke = true;
          yield chunk;
        }
        return;
      } catch (error) {
        if (spoke || signal.aborted) throw new SpeakerError(error, spent.tokensIn, spent.tokensOut);
        if (!tokenLimitTried && this.tokenLimit === 'max_tokens' && refusesMaxTokens(error)) {
          // The same mode again, with the limit the server wants.
          tokenLimitTried = true;
          this.tokenLimit = 'max_completion_tokens';
          this.options.onTokenLimitRefused?.((error as Error).message);
          continue;
        }
        const next = order[index + 1];
        if (!next || !refusesMode(error, mode)) {
          throw new SpeakerError(error, spent.tokensIn, spent.tokensOut);
        }
        // Another turn of this model may have moved on already: move only from where it was.
        if (this.mode === mode) {
          this.mode = next;
          this.options.onModeRefused?.(mode, next, (error as Error).message);
        }
        index += 1;
      }
    }
  }

  private request<T>(mode: StructuredOutputMode, task: Task<T>) {
    const body: ChatCompletionCreateParamsStreaming = {
      model: this.model.providerModel,
      [this.tokenLimit]: this.model.maxTokens,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: task.system(mode) },
        { role: 'user', content: task.user },
      ],
    };
    if (mode === 'tool_call') {
      return {
        ...body,
        tools: [
          {
            type: 'function' as const,
            function: {
              name: task.functionName,
              description: task.description,
              parameters: task.schema,
            },
          },
        ],
        tool_choice: { type: 'function' as const, function: { name: task.functionName } },
      };
    }
    if (mode === 'json_schema') {
      return {
        ...body,
        response_format: {
          type: 'json_schema' as const,
          json_schema: {
            name: task.functionName.replace(/^submit_/, ''),
            strict: true,
            schema: task.schema,
          },
        },
      };
    }
    return { ...body, response_format: { type: 'json_object' as const } };
  }

  /** One attempt in `mode`; the server's usage is added to `spent`, whatever the outcome. */
  private async *askIn<T>(
    mode: StructuredOutputMode,
    task: Task<T>,
    signal: AbortSignal,
    spent: Spent,
  ): AsyncIterable<TaskChunk<T>> {
    const stream = await this.client.chat.completions.create(this.request(mode, task), {
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
    try {
      for (;;) {
        const next = await Promise.race([chunks.next(), stalled]);
        if (next.done) break;
        rearm();
        const chunk = next.value;
        if (chunk.model) serverModel = chunk.model.slice(0, MAX_SERVER_MODEL_LENGTH);
        if (chunk.usage) {
          spent.tokensIn = (spent.tokensIn ?? 0) + chunk.usage.prompt_tokens;
          spent.tokensOut = (spent.tokensOut ?? 0) + chunk.usage.completion_tokens;
        }
        const delta = chunk.choices[0]?.delta;
        const piece =
          mode === 'tool_call' ? delta?.tool_calls?.[0]?.function?.arguments : delta?.content;
        if (!piece) continue;
        raw += piece;
        if (!task.streams) continue;
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
    const value = task.parse(raw);
    const text = (value as { text?: unknown }).text;
    if (
      task.streams &&
      typeof text === 'string' &&
      text.startsWith(shown) &&
      text.length > shown.length
    ) {
      yield { type: 'delta', text: text.slice(shown.length) };
    }
    yield { type: 'answer', value, serverModel };
  }
}
