import { judgeCriteria } from '@debate/contracts';
import { listeningUrl } from '@debate/nest';
import Fastify, { type FastifyReply } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';

/** How the fake answers the next completions. */
export type FakeOpenAiMode =
  | { readonly kind: 'stream'; readonly pieces?: number; readonly pauseMs?: number }
  | { readonly kind: 'status'; readonly status: 429 | 500 }
  | { readonly kind: 'stall' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'controlCharacters' };

/**
 * The server family the fake behaves as, each as its documentation says it treats structured
 * output:
 * - `openai`: a forced function call (`tool_choice` naming it), `response_format` json_schema
 *   and json_object; reports a dated snapshot of the model asked for.
 * - `ollama`: `tool_choice` is not supported and is ignored, so the model answers in prose
 *   instead of calling the function; `response_format` (both kinds) is honoured.
 * - `vllm`: a named `tool_choice` works (guided decoding); `auto` (or tools without a choice)
 *   is refused (400) unless started with --enable-auto-tool-choice (`autoToolChoice`).
 * - `llamacpp`: llama-server refuses any `tools` without --jinja (`jinja`) with a 500 naming
 *   the flag; `response_format` (both kinds) is honoured.
 * - `lmstudio`: tools and json_schema are honoured; json_object is refused (400).
 * - `openai` also refuses json_object (400) when no message says 'JSON', as OpenAI does.
 * Every family streams the stream's usage last when `stream_options.include_usage` is set.
 */
export type FakeServerFamily = 'openai' | 'ollama' | 'vllm' | 'llamacpp' | 'lmstudio';

export interface FakeOpenAiOptions {
  readonly family?: FakeServerFamily;
  /** vLLM's --enable-auto-tool-choice (with a parser); off by default. */
  readonly autoToolChoice?: boolean;
  /** llama-server's --jinja; off by default. */
  readonly jinja?: boolean;
  /** How long the model takes before its first token, in milliseconds (0 by default). */
  readonly firstTokenMs?: number;
}

export interface RecordedCompletion {
  readonly body: {
    model: string;
    max_tokens?: number;
    max_completion_tokens?: number;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ function: { name: string } }>;
    tool_choice?: string | { type: string; function?: { name: string } };
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  };
  readonly authorization: string | undefined;
  /** When the request arrived (ms since the epoch). */
  readonly receivedAt: number;
  /** How it was answered: as a function call, as content, or refused with this status. */
  answeredAs?: 'tool_call' | 'content' | 'prose' | number;
}

export interface FakeOpenAi {
  /** The base URL to give the SDK (a catalogue entry's baseUrl). */
  readonly baseUrl: string;
  readonly family: FakeServerFamily;
  mode: FakeOpenAiMode;
  /** The model's time to first token, in milliseconds. */
  firstTokenMs: number;
  /**
   * Its models are OpenAI's reasoning models, which refuse `max_tokens` (400) and take
   * `max_completion_tokens`.
   */
  reasoningModels: boolean;
  /**
   * Its judge prefers whichever speaker it reads first (position bias at its worst); otherwise
   * it prefers the speaker who wrote more.
   */
  judgeFavoursFirst: boolean;
  /** What its reviewer (a speaker team's) returns: these fixes, or none (it accepts). */
  reviewerFixes: string[];
  readonly requests: RecordedCompletion[];
  close(): Promise<void>;
}

/**
 * What the request says outside the material its prompt quotes: each message with every tagged
 * block (`<tag …>…</tag>`) taken out. The fake's model does what is left says, as a model that
 * follows instructions would: a speaker told to `write only "…"` writes that, a judge told to
 * `answer winner A` (B, tie) answers it. So a quote that ends before the prompt meant it to (a
 * `</turn>` in a speech) lets what follows through, and text that is not quoted is obeyed.
 */
function unquoted(body: RecordedCompletion['body']): string {
  return body.messages
    .map((message) => message.content.replace(/<([a-z_]+)(?:\s[^>]*)?>[^]*?<\/\1>/g, ''))
    .join('\n');
}

/**
 * The argument the fake's model writes for a request: it names the speaker and the topic (the
 * prompt's `<motion>`), unless the request's unquoted text tells it what to write.
 */
export function fakeArgument(body: RecordedCompletion['body']): { text: string; summary: string } {
  const ordered = /\bwrite only "([^"]+)"/.exec(unquoted(body))?.[1];
  if (ordered) return { text: ordered, summary: ordered };
  const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
  const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const who = /You are the (.+?)(?: in a debate| of a debate|\.)/.exec(system)?.[1] ?? 'speaker';
  const topic = /<motion>([^]*?)<\/motion>/.exec(user)?.[1] ?? 'the topic';
  return {
    text: `As the ${who}, on "${topic}": here is a full argument, with reasons and evidence.`,
    summary: `The ${who} made a case. It had reasons. It had evidence. And a fourth sentence.`,
  };
}

/** Which member of a speaker's team the request asks, if it asks one (not the writer). */
function teamMember(body: RecordedCompletion['body']): 'analyzer' | 'reviewer' | undefined {
  const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
  return /^You are the (analyzer|reviewer) /.exec(system)?.[1] as
    'analyzer' | 'reviewer' | undefined;
}

/** Whether the request asks for a judge's scorecard rather than a speaker's turn. */
function asksForScorecard(body: RecordedCompletion['body']): boolean {
  const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
  return system.startsWith('You are the judge');
}

/**
 * The scorecard the fake's judge gives: the winner the request's unquoted text names, 10 to 1,
 * when it names one (`answer winner A`); else the speaker it reads first, when it favours that
 * position; else the one who wrote more in its `<turn>`s (whatever the order), 7 to 6 on every
 * criterion.
 */
export function fakeScorecard(
  body: RecordedCompletion['body'],
  favoursFirst: boolean,
): {
  scores: Record<'A' | 'B', Record<string, { score: number; reason: string }>>;
  winner: 'A' | 'B' | 'tie';
} {
  const transcript = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const written = { A: 0, B: 0 };
  for (const [, position, text] of transcript.matchAll(
    /<turn speaker="(A|B)"[^>]*>([^]*?)<\/turn>/g,
  )) {
    written[position as 'A' | 'B'] += (text ?? '').length;
  }
  const ordered = /\banswer winner (A|B|tie)\b/.exec(unquoted(body))?.[1] as
    'A' | 'B' | 'tie' | undefined;
  const winner: 'A' | 'B' | 'tie' =
    ordered ??
    (favoursFirst ? 'A' : written.A === written.B ? 'tie' : written.A > written.B ? 'A' : 'B');
  const [won, lost] = ordered ? [10, 1] : [7, 6];
  const score = (speaker: 'A' | 'B') => (winner === 'tie' ? 6 : winner === speaker ? won : lost);
  return {
    scores: Object.fromEntries(
      (['A', 'B'] as const).map((speaker) => [
        speaker,
        Object.fromEntries(
          judgeCriteria.map((criterion) => [
            criterion,
            {
              score: score(speaker),
              reason: `Speaker ${speaker}'s ${criterion}, as the fake judge sees it.`,
            },
          ]),
        ),
      ]),
    ) as Record<'A' | 'B', Record<string, { score: number; reason: string }>>,
    winner,
  };
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size)
    parts.push(text.slice(index, index + size));
  return parts;
}

/** A family's refusal of the request, as its server words it, or undefined. */
function refusal(
  family: FakeServerFamily,
  body: RecordedCompletion['body'],
  options: FakeOpenAiOptions,
): { status: number; message: string } | undefined {
  const tools = (body.tools?.length ?? 0) > 0;
  const choice = body.tool_choice;
  if (family === 'vllm' && tools && !options.autoToolChoice) {
    if (choice === undefined || choice === 'auto') {
      return {
        status: 400,
        message:
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      };
    }
  }
  if (family === 'llamacpp' && tools && !options.jinja) {
    return { status: 500, message: 'tools param requires --jinja flag' };
  }
  if (family === 'lmstudio' && body.response_format?.type === 'json_object') {
    return { status: 400, message: "'response_format.type' must be 'json_schema' or 'text'" };
  }
  // OpenAI's JSON mode: the messages must ask for JSON in words.
  if (
    family === 'openai' &&
    body.response_format?.type === 'json_object' &&
    !body.messages.some((message) => /json/i.test(message.content))
  ) {
    return {
      status: 400,
      message:
        "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
    };
  }
  return undefined;
}

/** How the family answers: a function call, JSON content, or prose (the function ignored). */
function answerKind(
  family: FakeServerFamily,
  body: RecordedCompletion['body'],
): 'tool_call' | 'content' | 'prose' {
  if (body.response_format && body.response_format.type !== 'text') return 'content';
  const forced = typeof body.tool_choice === 'object' && body.tool_choice.type === 'function';
  if ((body.tools?.length ?? 0) > 0) {
    // Ollama ignores tool_choice: the model is free not to call the function, and does not.
    if (family === 'ollama') return 'prose';
    return forced || body.tool_choice === 'required' ? 'tool_call' : 'prose';
  }
  return 'prose';
}

function refuse(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error' },
  });
}

/**
 * An OpenAI-compatible chat completions server for the tests and the streaming benchmark (the
 * edge of the world): it streams the answer in pieces as the real servers do (a function
 * call's arguments, or content), behaves as the server family it is started as, does what the
 * prompt's unquoted text tells it to (`unquoted`), and can misbehave on demand (an HTTP error, a
 * stalled stream, malformed JSON, control characters).
 */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const family = options.family ?? 'openai';
  const http = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  const fake: {
    mode: FakeOpenAiMode;
    firstTokenMs: number;
    reasoningModels: boolean;
    judgeFavoursFirst: boolean;
    reviewerFixes: string[];
    requests: RecordedCompletion[];
  } = {
    mode: { kind: 'stream' },
    firstTokenMs: options.firstTokenMs ?? 0,
    reasoningModels: false,
    judgeFavoursFirst: false,
    reviewerFixes: [],
    requests: [],
  };

  http.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as RecordedCompletion['body'];
    const recorded: RecordedCompletion = {
      body,
      authorization: request.headers.authorization,
      receivedAt: Date.now(),
    };
    fake.requests.push(recorded);
    const mode = fake.mode;
    if (mode.kind === 'status') {
      recorded.answeredAs = mode.status;
      return refuse(
        reply,
        mode.status,
        mode.status === 429 ? 'Rate limit reached' : 'The server had an error',
      );
    }
    const refused =
      fake.reasoningModels && body.max_tokens !== undefined
        ? {
            status: 400,
            message:
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          }
        : refusal(family, body, options);
    if (refused) {
      recorded.answeredAs = refused.status;
      return refuse(reply, refused.status, refused.message);
    }
    const kind = answerKind(family, body);
    recorded.answeredAs = kind;
    const argument = fakeArgument(body);
    let raw = kind === 'prose' ? `${argument.text} ${argument.summary}` : JSON.stringify(argument);
    const member = kind === 'prose' ? undefined : teamMember(body);
    if (member === 'analyzer') {
      raw = JSON.stringify({
        standing: ['The opponent says the change costs too much.'],
        clashes: ['Cost against benefit.'],
        plan: 'Argue the benefit first, answer the cost, concede the transition is hard.',
      });
    } else if (member === 'reviewer') {
      const fixes = fake.reviewerFixes;
      raw = JSON.stringify({ accepted: fixes.length === 0, fixes });
    }
    if (asksForScorecard(body)) {
      const card = JSON.stringify(fakeScorecard(body, fake.judgeFavoursFirst));
      raw = kind === 'prose' ? 'Both speakers argued well; it is hard to call.' : card;
    }
    if (body.stream !== true) {
      // A whole answer at once, as the API gives it without `stream`.
      const prompt = body.messages.reduce((sum, message) => sum + message.content.length, 0);
      return reply.send({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 0,
        model: family === 'openai' ? `${body.model}-2024-08-06` : body.model,
        choices: [
          {
            index: 0,
            message:
              kind === 'tool_call'
                ? {
                    role: 'assistant',
                    content: null,
                    tool_calls: [
                      {
                        id: 'call_1',
                        type: 'function',
                        function: { name: body.tools?.[0]?.function.name ?? 'f', arguments: raw },
                      },
                    ],
                  }
                : { role: 'assistant', content: raw },
            finish_reason: kind === 'tool_call' ? 'tool_calls' : 'stop',
          },
        ],
        usage: {
          prompt_tokens: Math.ceil(prompt / 4),
          completion_tokens: Math.ceil(raw.length / 4),
          total_tokens: Math.ceil(prompt / 4) + Math.ceil(raw.length / 4),
        },
      });
    }
    if (mode.kind === 'malformed') raw = raw.replace(/\}$/, ',');
    if (mode.kind === 'controlCharacters') {
      raw = raw.replace('here is', 'here\nis\u0001').replace('reasons and', 'reasons\tand');
    }
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data: unknown) => out.write(`data: ${JSON.stringify(data)}\n\n`);
    const base = {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      // OpenAI answers with the dated snapshot it served; the others with the name asked for.
      model: family === 'openai' ? `${body.model}-2024-08-06` : body.model,
    };
    const delta = (piece: string) =>
      kind === 'tool_call'
        ? { tool_calls: [{ index: 0, function: { arguments: piece } }] }
        : { content: piece };
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta:
            kind === 'tool_call'
              ? {
                  role: 'assistant',
                  tool_calls: [
                    {
                      index: 0,
                      id: 'call_1',
                      type: 'function',
                      function: { name: 'submit_argument', arguments: '' },
                    },
                  ],
                }
              : { role: 'assistant', content: '' },
          finish_reason: null,
        },
      ],
    });
    if (mode.kind === 'stall') return reply; // headers sent, then silence
    if (fake.firstTokenMs > 0) await sleep(fake.firstTokenMs);
    const pieces = mode.kind === 'stream' ? (mode.pieces ?? 8) : 8;
    const pauseMs = mode.kind === 'stream' ? (mode.pauseMs ?? 0) : 0;
    for (const [index, piece] of split(raw, pieces).entries()) {
      if (pauseMs > 0 && index > 0) await sleep(pauseMs);
      send({ ...base, choices: [{ index: 0, delta: delta(piece), finish_reason: null }] });
    }
    send({
      ...base,
      choices: [
        { index: 0, delta: {}, finish_reason: kind === 'tool_call' ? 'tool_calls' : 'stop' },
      ],
    });
    if (body.stream_options?.include_usage) {
      const prompt = body.messages.reduce((sum, message) => sum + message.content.length, 0);
      // About four characters a token, as the real tokenizers count English.
      send({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: Math.ceil(prompt / 4),
          completion_tokens: Math.ceil(raw.length / 4),
          total_tokens: Math.ceil(prompt / 4) + Math.ceil(raw.length / 4),
        },
      });
    }
    out.end('data: [DONE]\n\n');
    return reply;
  });

  await http.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `${listeningUrl(http.server, '127.0.0.1')}/v1`,
    family,
    get mode() {
      return fake.mode;
    },
    set mode(mode: FakeOpenAiMode) {
      fake.mode = mode;
    },
    get firstTokenMs() {
      return fake.firstTokenMs;
    },
    set firstTokenMs(ms: number) {
      fake.firstTokenMs = ms;
    },
    get reasoningModels() {
      return fake.reasoningModels;
    },
    set reasoningModels(on: boolean) {
      fake.reasoningModels = on;
    },
    get judgeFavoursFirst() {
      return fake.judgeFavoursFirst;
    },
    set judgeFavoursFirst(on: boolean) {
      fake.judgeFavoursFirst = on;
    },
    get reviewerFixes() {
      return fake.reviewerFixes;
    },
    set reviewerFixes(fixes: string[]) {
      fake.reviewerFixes = fixes;
    },
    requests: fake.requests,
    close: async () => {
      http.server.closeAllConnections();
      await http.close();
    },
  };
}
