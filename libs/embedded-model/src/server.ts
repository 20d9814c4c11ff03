import { randomUUID, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import Fastify, { type FastifyReply } from 'fastify';
import { z } from 'zod';
import { type ModelDownload, downloadModel } from './download.js';
import {
  type AnswerFormat,
  type ChatMessage,
  Engine,
  EngineRequestError,
  type EngineOptions,
} from './engine.js';
import type { LocalModelState, ModelHealth } from './state.js';

export interface ModelServerOptions {
  /** Where to listen: 127.0.0.1 and a free port unless told. */
  readonly host?: string;
  readonly port?: number;
  /** A GGUF file on disk, or one to fetch into `cacheDir` first (resumed, checksum checked). */
  readonly source:
    { readonly file: string } | { readonly download: ModelDownload; readonly cacheDir: string };
  /** llama.cpp's threads; unset, half the machine's cores (at least one). */
  readonly threads?: number;
  /** Each sequence's context in tokens; unset, 8192. */
  readonly contextSize?: number;
  /** Requests generated at once; unset, 2. */
  readonly sequences?: number;
  /** Requests that may wait for a sequence; unset, 32. */
  readonly maxQueue?: number;
  /** Whether a GPU build may be used where one is installed; unset, CPU only. */
  readonly gpu?: boolean;
  /** When set, every /v1 request must carry `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  readonly logger?: { log(message: string): void; warn(message: string): void };
  /** Every change of state, download progress included. */
  readonly onState?: (state: LocalModelState) => void;
}

export interface ModelServer {
  /** http://host:port */
  readonly origin: string;
  /** The OpenAI-compatible base URL: origin + '/v1'. */
  readonly url: string;
  /** The id a request names as `model`. */
  readonly modelId: string;
  state(): LocalModelState;
  health(): ModelHealth;
  /** Resolves once the model answers; rejects with the reason when it failed. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The half of the machine llama.cpp may take by default: the services keep the rest. */
export function defaultThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

const Text = z.string().max(1_000_000);
const Message = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([Text, z.array(z.object({ type: z.literal('text'), text: Text })).min(1)]),
});

const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().max(64).optional(),
      strict: z.boolean().nullish(),
      schema: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
]);

/** What /v1/chat/completions accepts; anything else OpenAI's API has is ignored, as llama.cpp's server does. */
const ChatCompletionRequest = z.object({
  model: z.string().min(1).max(200),
  messages: z.array(Message).min(1).max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([z.string().min(1), z.array(z.string().min(1)).max(4)]).nullish(),
  response_format: ResponseFormat.nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  n: z.literal(1).nullish(),
  tools: z.array(z.unknown()).nullish(),
});
type ChatCompletionRequest = z.output<typeof ChatCompletionRequest>;

/** OpenAI's error body. */
function openAiError(message: string, type: string, param: string | null = null, code?: string) {
  return { error: { message, type, param, code: code ?? null } };
}

/**
 * Starts the OpenAI-compatible server at once, then fetches (when asked) and loads the model in
 * the background: until it is ready every /v1 request is answered 503, as llama.cpp's server
 * does while loading, so a client falls back rather than waits.
 */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const file =
    'file' in options.source
      ? options.source.file
      : join(options.source.cacheDir, options.source.download.file);
  const modelId = basename(file).replace(/\.gguf$/i, '');
  let name = 'download' in options.source ? options.source.download.name : modelId;
  let state: LocalModelState =
    'download' in options.source
      ? { status: 'downloading', receivedBytes: 0, totalBytes: options.source.download.bytes }
      : { status: 'loading' };
  let engine: Engine | undefined;
  let closing = false;
  /** The generations under way: stopping the server stops them rather than waits for them. */
  const inFlight = new Set<AbortController>();
  const stopDownload = new AbortController();
  const setState = (next: LocalModelState) => {
    state = next;
    options.onState?.(next);
  };

  const health = (): ModelHealth => ({
    status: state.status,
    model: modelId,
    name,
    progress:
      state.status === 'downloading' && state.totalBytes
        ? Math.min(1, state.receivedBytes / state.totalBytes)
        : null,
    reason: state.status === 'failed' ? state.reason : null,
    ...(engine?.load() ?? { running: 0, waiting: 0 }),
  });

  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
  const expectedKey = options.apiKey ? Buffer.from(`Bearer ${options.apiKey}`) : undefined;

  app.get('/health', async (_request, reply) =>
    reply.code(state.status === 'ready' ? 200 : 503).send(health()),
  );

  app.addHook('onRequest', async (request, reply) => {
    // The route matched, not the raw URL: Fastify routes /%761/models to /v1/models, and the
    // key must guard whatever reaches the API's handlers.
    if (!request.routeOptions.url?.startsWith('/v1/')) return;
    if (expectedKey) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expectedKey.length || !timingSafeEqual(given, expectedKey)) {
        return reply
          .code(401)
          .send(
            openAiError(
              'Incorrect API key provided.',
              'invalid_request_error',
              null,
              'invalid_api_key',
            ),
          );
      }
    }
    if (state.status !== 'ready') {
      const why =
        state.status === 'downloading'
          ? `The model is downloading (${Math.floor((health().progress ?? 0) * 100)} %).`
          : state.status === 'loading'
            ? 'Loading model'
            : `The model could not be loaded: ${state.reason}`;
      return reply.code(503).send(openAiError(why, 'unavailable_error', null, 'model_not_ready'));
    }
  });

  app.get('/v1/models', async () => ({
    object: 'list',
    data: [{ id: modelId, object: 'model', created: 0, owned_by: 'local' }],
  }));

  app.post('/v1/chat/completions', async (request, reply) => {
    const parsed = ChatCompletionRequest.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue?.path.join('.') || null;
      return reply
        .code(400)
        .send(
          openAiError(
            `Invalid request: ${param ?? 'body'}: ${issue?.message ?? 'malformed'}`,
            'invalid_request_error',
            param,
          ),
        );
    }
    const body = parsed.data;
    if (body.model !== modelId) {
      return reply
        .code(404)
        .send(
          openAiError(
            `The model '${body.model}' does not exist; this server serves '${modelId}'.`,
            'invalid_request_error',
            'model',
            'model_not_found',
          ),
        );
    }
    if (body.tools && body.tools.length > 0) {
      return reply
        .code(400)
        .send(
          openAiError(
            'tools are not supported by this server: ask for structured output with response_format json_schema.',
            'invalid_request_error',
            'tools',
          ),
        );
    }
    const running = engine;
    if (!running) {
      return reply.code(503).send(openAiError('Loading model', 'unavailable_error'));
    }
    return complete(running, body, reply);
  });

  /** Generates one answer, streamed as server-sent events or whole. */
  async function complete(
    running: Engine,
    body: ChatCompletionRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const format: AnswerFormat =
      body.response_format?.type === 'json_schema'
        ? body.response_format.json_schema.schema
          ? { type: 'json_schema', schema: body.response_format.json_schema.schema }
          : { type: 'json_object' }
        : body.response_format?.type === 'json_object'
          ? { type: 'json_object' }
          : { type: 'text' };
    const messages: ChatMessage[] = body.messages.map((message) => ({
      role: message.role === 'developer' ? 'system' : message.role,
      content:
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => part.text).join(''),
    }));
    const request = {
      messages,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? running.contextSize,
      temperature: body.temperature ?? 1,
      topP: body.top_p ?? undefined,
      seed: body.seed ?? undefined,
      stop: body.stop === undefined || body.stop === null ? [] : [body.stop].flat(),
      format,
      frequencyPenalty: body.frequency_penalty ?? undefined,
      presencePenalty: body.presence_penalty ?? undefined,
    };
    // A client that goes away (a cancelled debate) stops the generation at its next token.
    const cancel = new AbortController();
    inFlight.add(cancel);
    reply.raw.on('close', () => {
      inFlight.delete(cancel);
      if (!reply.raw.writableFinished) cancel.abort(new Error('The client went away'));
    });
    const chunk = (delta: Record<string, string>, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: modelId,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });

    if (!body.stream) {
      try {
        const result = await running.generate(request, () => undefined, cancel.signal);
        return reply.send({
          id,
          object: 'chat.completion',
          created,
          model: modelId,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: result.text },
              finish_reason: result.finishReason,
            },
          ],
          usage: usage(result.promptTokens, result.completionTokens),
        });
      } catch (error) {
        return sendError(reply, error);
      }
    }

    // Checks that can refuse the request happen before the first event, so they get a status.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      send(chunk({ role: 'assistant', content: '' }, null));
    };
    const send = (event: unknown) => {
      if (!reply.raw.destroyed) reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    try {
      const result = await running.generate(
        request,
        (text) => {
          start();
          send(chunk({ content: text }, null));
        },
        cancel.signal,
      );
      start();
      send(chunk({}, result.finishReason));
      if (body.stream_options?.include_usage) {
        send({
          id,
          object: 'chat.completion.chunk',
          created,
          model: modelId,
          choices: [],
          usage: usage(result.promptTokens, result.completionTokens),
        });
      }
      reply.raw.end('data: [DONE]\n\n');
      return reply;
    } catch (error) {
      if (!started) return sendError(reply, error);
      // Mid-stream, the status is sent: the error is an event, as OpenAI's API sends it, and
      // the stream ends without [DONE], so no client takes the answer so far for a whole one.
      if (!(error instanceof EngineRequestError)) {
        options.logger?.warn(`embedded-model: a completion failed: ${String(error)}`);
      }
      send(
        error instanceof EngineRequestError
          ? openAiError(error.message, 'unavailable_error')
          : openAiError('The model failed to answer.', 'server_error'),
      );
      reply.raw.end();
      return reply;
    }
  }

  function sendError(reply: FastifyReply, error: unknown): FastifyReply {
    if (error instanceof EngineRequestError) {
      const status = error.kind === 'busy' ? 503 : 400;
      const type = error.kind === 'busy' ? 'unavailable_error' : 'invalid_request_error';
      const code = error.kind === 'context_length' ? 'context_length_exceeded' : undefined;
      return reply.code(status).send(openAiError(error.message, type, null, code));
    }
    if (reply.raw.destroyed) return reply;
    options.logger?.warn(`embedded-model: a completion failed: ${String(error)}`);
    return reply.code(500).send(openAiError('The model failed to answer.', 'server_error'));
  }

  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const engineOptions: Omit<EngineOptions, 'file'> = {
    threads: options.threads ?? defaultThreads(),
    contextSize: options.contextSize ?? 8192,
    sequences: options.sequences ?? 2,
    maxQueue: options.maxQueue ?? 32,
    gpu: options.gpu ?? false,
  };
  const readiness = (async () => {
    let path = file;
    if ('download' in options.source) {
      const { download, cacheDir } = options.source;
      path = await downloadModel(download, {
        cacheDir,
        signal: stopDownload.signal,
        onProgress: (receivedBytes, totalBytes) =>
          setState({ status: 'downloading', receivedBytes, totalBytes }),
      });
    }
    if (closing) throw new Error('The model server stopped');
    setState({ status: 'loading' });
    const loaded = await Engine.load({ ...engineOptions, file: path });
    if (closing) {
      await loaded.close();
      throw new Error('The model server stopped');
    }
    engine = loaded;
    // The file's own name for the model, once it is read (a download's name stands till then).
    name =
      'download' in options.source && !options.source.download.nameFromFile ? name : loaded.name;
    setState({ status: 'ready' });
    options.logger?.log(
      `The local model ${name} is ready at ${origin}/v1 (${engineOptions.threads} thread${engineOptions.threads === 1 ? '' : 's'}, ${engineOptions.sequences} at once)`,
    );
  })();
  readiness.catch((error: unknown) => {
    if (closing) return;
    const reason = error instanceof Error ? error.message : String(error);
    setState({ status: 'failed', reason: reason.slice(0, 2000) });
  });
  // Readiness is awaited by whoever asks; an unobserved failure is a state, not a crash.
  readiness.catch(() => undefined);

  return {
    origin,
    url: `${origin}/v1`,
    modelId,
    state: () => state,
    health,
    ready: () => readiness,
    async close() {
      if (closing) return;
      closing = true;
      stopDownload.abort(new Error('The model server stopped'));
      for (const generation of inFlight) generation.abort(new Error('The model server stopped'));
      await app.close();
      await readiness.catch(() => undefined);
      await engine?.close();
    },
  };
}

function usage(promptTokens: number, completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
