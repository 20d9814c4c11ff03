import { basename } from 'node:path';
import type {
  ChatHistoryItem,
  ChatWrapper,
  GbnfJsonSchema,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from 'node-llama-cpp';
import type * as NodeLlamaCpp from 'node-llama-cpp';

/**
 * node-llama-cpp, loaded with the first engine: its module graph (some 700 files) would otherwise
 * sit in the memory of every process that imports this package, a platform running without a
 * local model included.
 */
type LlamaCpp = typeof NodeLlamaCpp;

/** How the engine runs: the model file, and what it may take of the machine. */
export interface EngineOptions {
  readonly file: string;
  /**
   * llama.cpp's threads. They spin while they wait: on a machine shared with the services, more
   * threads than spare cores make every token slower, not faster.
   */
  readonly threads: number;
  /** Each sequence's context, in tokens (prompt and answer together). */
  readonly contextSize: number;
  /** How many requests are generated at once, batched on one loaded model. */
  readonly sequences: number;
  /** How many more may wait for a sequence; beyond, a request is refused as busy. */
  readonly maxQueue: number;
  /** Whether llama.cpp may use a GPU build installed beside the CPU one (docs/local-model.md). */
  readonly gpu: boolean;
}

/** What the answer must be: a JSON schema's grammar, any JSON object, or free text. */
export type AnswerFormat =
  | { readonly type: 'json_schema'; readonly schema: Readonly<Record<string, unknown>> }
  | { readonly type: 'json_object' }
  | { readonly type: 'text' };

export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  readonly maxTokens: number;
  readonly temperature: number;
  readonly topP: number | undefined;
  readonly seed: number | undefined;
  readonly stop: readonly string[];
  readonly format: AnswerFormat;
  readonly frequencyPenalty: number | undefined;
  readonly presencePenalty: number | undefined;
}

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface GenerateResult {
  readonly text: string;
  /** 'length' when max_tokens cut it, 'stop' otherwise (its end, or a stop sequence). */
  readonly finishReason: 'stop' | 'length';
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** A request the engine will not run: the HTTP layer answers it 400 (or 503 when busy). */
export class EngineRequestError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'busy' | 'context_length',
  ) {
    super(message);
  }
}

/** Grammars are compiled once per schema: a debate asks with the same few schemas again and again. */
const GRAMMAR_CACHE_SIZE = 32;

/**
 * One loaded model and its context sequences: each request takes a free sequence (llama.cpp
 * batches the sequences' tokens together), more wait in a bounded queue, and a request whose
 * client went away stops generating.
 */
export class Engine {
  private readonly free: LlamaContextSequence[];
  private readonly waiting: Array<{
    readonly resolve: (sequence: LlamaContextSequence) => void;
    readonly reject: (error: unknown) => void;
    readonly signal: AbortSignal;
  }> = [];
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private closed = false;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly options: EngineOptions,
    /**
     * How the model's chats are written out (its chat template), resolved once: node-llama-cpp
     * resolves it again for every LlamaChat otherwise, 100+ ms of blocking work per request.
     */
    private readonly chatWrapper: ChatWrapper,
    private readonly llamaCpp: LlamaCpp,
    /** The model's id, as /v1/models lists it and a request names it. */
    readonly id: string,
    /** Its name for people: GGUF's general.name, else the file's. */
    readonly name: string,
  ) {
    this.free = Array.from({ length: options.sequences }, () => context.getSequence());
  }

  static async load(options: EngineOptions): Promise<Engine> {
    const llamaCpp = await import('node-llama-cpp');
    const { getLlama, LlamaLogLevel, resolveChatWrapper } = llamaCpp;
    // build: 'never': the prebuilt binaries from npm, or fail; llama.cpp is never compiled here.
    const llama = await getLlama({
      gpu: options.gpu ? 'auto' : false,
      build: 'never',
      logLevel: LlamaLogLevel.error,
      maxThreads: options.threads,
    });
    try {
      const model = await llama.loadModel({ modelPath: options.file });
      const context = await model.createContext({
        contextSize: options.contextSize,
        sequences: options.sequences,
        threads: options.threads,
      });
      const id = basename(options.file).replace(/\.gguf$/i, '');
      const metadataName = model.fileInfo.metadata.general?.name;
      const name = typeof metadataName === 'string' && metadataName.trim() ? metadataName : id;
      const chatWrapper = resolveChatWrapper(model);
      return new Engine(
        llama,
        model,
        context,
        options,
        chatWrapper,
        llamaCpp,
        id,
        name.trim().slice(0, 80),
      );
    } catch (error) {
      await llama.dispose();
      throw error;
    }
  }

  /** The context of one sequence, in tokens. */
  get contextSize(): number {
    return this.options.contextSize;
  }

  /**
   * Generates the assistant's answer to `messages`, calling `onText` with each piece as it
   * comes. An aborted signal stops generating; the text so far is returned.
   */
  async generate(
    request: GenerateRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<GenerateResult> {
    const grammar = await this.grammarFor(request.format);
    const sequence = await this.acquire(signal);
    const chat = new this.llamaCpp.LlamaChat({
      contextSequence: sequence,
      chatWrapper: this.chatWrapper,
      autoDisposeSequence: false,
    });
    try {
      const history = toHistory(request.messages);
      const promptTokens = chat.chatWrapper
        .generateContextState({ chatHistory: history })
        .contextText.tokenize(this.model.tokenizer).length;
      if (promptTokens + 1 > this.options.contextSize) {
        throw new EngineRequestError(
          `This model's context is ${this.options.contextSize} tokens; the messages take ${promptTokens}.`,
          'context_length',
        );
      }
      let completionTokens = 0;
      const answer = await chat
        .generateResponse(history, {
          // Never more than the context has room for: llama.cpp would otherwise shift it.
          maxTokens: Math.min(request.maxTokens, this.options.contextSize - promptTokens),
          temperature: request.temperature,
          ...(request.topP !== undefined ? { topP: request.topP } : {}),
          ...(request.seed !== undefined ? { seed: request.seed } : {}),
          ...(grammar ? { grammar } : {}),
          ...(request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
          repeatPenalty:
            request.frequencyPenalty || request.presencePenalty
              ? {
                  frequencyPenalty: request.frequencyPenalty ?? 0,
                  presencePenalty: request.presencePenalty ?? 0,
                }
              : false,
          signal,
          stopOnAbortSignal: true,
          onToken: (tokens) => {
            completionTokens += tokens.length;
          },
          onTextChunk: onText,
        })
        .catch((error: unknown) => {
          // Aborted before the first token, node-llama-cpp throws the signal's reason.
          throw signal.aborted ? stopped(signal) : error;
        });
      // Stopped half-way (the client went, or the server is stopping): what was written is no
      // answer, and must not be sent as one.
      if (answer.metadata.stopReason === 'abort' || signal.aborted) throw stopped(signal);
      return {
        text: answer.response,
        finishReason: answer.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
        promptTokens,
        completionTokens,
      };
    } finally {
      chat.dispose({ disposeSequence: false });
      this.release(sequence);
    }
  }

  /** Requests being generated and waiting, for /health and the logs. */
  load(): { readonly running: number; readonly waiting: number } {
    return { running: this.options.sequences - this.free.length, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) {
      waiter.reject(new EngineRequestError('The model server is stopping.', 'busy'));
    }
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }

  private async grammarFor(format: AnswerFormat): Promise<LlamaGrammar | undefined> {
    if (format.type === 'text') return undefined;
    const key = format.type === 'json_object' ? 'json' : JSON.stringify(format.schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar =
        format.type === 'json_object'
          ? this.llama.getGrammarFor('json')
          : // The request's schema was checked to be an object schema at the boundary; what
            // node-llama-cpp cannot turn into a grammar it throws for, answered 400.
            this.llama.createGrammarForJsonSchema<GbnfJsonSchema, Record<string, GbnfJsonSchema>>(
              format.schema as GbnfJsonSchema,
            );
      this.grammars.set(key, grammar);
      if (this.grammars.size > GRAMMAR_CACHE_SIZE) {
        const oldest = this.grammars.keys().next().value;
        if (oldest !== undefined) this.grammars.delete(oldest);
      }
      grammar.catch(() => this.grammars.delete(key));
    }
    try {
      return await grammar;
    } catch (error) {
      throw new EngineRequestError(
        `response_format.json_schema could not be made a grammar: ${(error as Error).message}`,
        'invalid',
      );
    }
  }

  private acquire(signal: AbortSignal): Promise<LlamaContextSequence> {
    if (this.closed) {
      return Promise.reject(new EngineRequestError('The model server is stopping.', 'busy'));
    }
    // A client gone already (while its grammar was made) takes no place and no sequence.
    if (signal.aborted) return Promise.reject(stopped(signal));
    const sequence = this.free.pop();
    if (sequence) return Promise.resolve(sequence);
    if (this.waiting.length >= this.options.maxQueue) {
      return Promise.reject(
        new EngineRequestError(
          `The model is busy: ${this.options.sequences} requests are being answered and ${this.waiting.length} wait.`,
          'busy',
        ),
      );
    }
    return new Promise((resolve, reject) => {
      // A client that leaves the queue frees its place at once.
      const leave = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(stopped(signal));
      };
      const waiter = {
        resolve: (sequence: LlamaContextSequence) => {
          signal.removeEventListener('abort', leave);
          resolve(sequence);
        },
        reject,
        signal,
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  private release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next.resolve(sequence);
    else this.free.push(sequence);
  }
}

/** A generation stopped before its end: the server is stopping, or its client went away. */
function stopped(signal: AbortSignal): EngineRequestError {
  const why = signal.reason instanceof Error ? signal.reason.message : 'the request was cancelled';
  return new EngineRequestError(`Stopped before the answer was complete: ${why}.`, 'busy');
}

/** OpenAI's messages as node-llama-cpp's chat history, ending with the answer to write. */
function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message) =>
    message.role === 'system'
      ? { type: 'system', text: message.content }
      : message.role === 'user'
        ? { type: 'user', text: message.content }
        : { type: 'model', response: [message.content] },
  );
  history.push({ type: 'model', response: [] });
  return history;
}
