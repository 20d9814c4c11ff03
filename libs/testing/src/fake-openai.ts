import { listeningUrl } from '@debate/nest';
import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';

/** How the fake answers the next completions. */
export type FakeOpenAiMode =
  | { readonly kind: 'stream'; readonly pieces?: number; readonly pauseMs?: number }
  | { readonly kind: 'status'; readonly status: 429 | 500 }
  | { readonly kind: 'stall' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'controlCharacters' };

export interface RecordedCompletion {
  readonly body: {
    model: string;
    max_tokens?: number;
    stream?: boolean;
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ function: { name: string } }>;
    tool_choice?: { type: string; function?: { name: string } };
  };
  readonly authorization: string | undefined;
}

export interface FakeOpenAi {
  /** The base URL to give the SDK (OPENAI_BASE_URL). */
  readonly baseUrl: string;
  mode: FakeOpenAiMode;
  readonly requests: RecordedCompletion[];
  close(): Promise<void>;
}

/** The argument the fake's model writes for a request: it names the speaker and the topic. */
export function fakeArgument(body: RecordedCompletion['body']): { text: string; summary: string } {
  const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
  const user = body.messages.find((message) => message.role === 'user')?.content ?? '';
  const who = /You are the (.+?)(?: in a debate| of a debate|\.)/.exec(system)?.[1] ?? 'speaker';
  const topic = /^Topic: (.*)$/m.exec(user)?.[1] ?? 'the topic';
  return {
    text: `As the ${who}, on "${topic}": here is a full argument, with reasons and evidence.`,
    summary: `The ${who} made a case. It had reasons. It had evidence. And a fourth sentence.`,
  };
}

function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let index = 0; index < text.length; index += size)
    parts.push(text.slice(index, index + size));
  return parts;
}

/**
 * An OpenAI-compatible chat completions server for the speaker's tests: it streams a forced
 * tool call's arguments in pieces, as the real API does, and can misbehave on demand (an HTTP
 * error, a stalled stream, malformed JSON, raw control characters).
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const http = Fastify({ bodyLimit: 10 * 1024 * 1024 });
  const fake: { mode: FakeOpenAiMode; requests: RecordedCompletion[] } = {
    mode: { kind: 'stream' },
    requests: [],
  };

  http.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as RecordedCompletion['body'];
    fake.requests.push({ body, authorization: request.headers.authorization });
    const mode = fake.mode;
    if (mode.kind === 'status') {
      return reply.code(mode.status).send({
        error: {
          message: mode.status === 429 ? 'Rate limit reached' : 'The server had an error',
          type: 'server_error',
        },
      });
    }
    const argument = fakeArgument(body);
    let raw = JSON.stringify(argument);
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
      model: body.model,
    };
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'submit_argument', arguments: '' },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    if (mode.kind === 'stall') return reply; // headers sent, then silence
    const pieces = mode.kind === 'stream' ? (mode.pieces ?? 8) : 8;
    const pauseMs = mode.kind === 'stream' ? (mode.pauseMs ?? 0) : 0;
    for (const piece of split(raw, pieces)) {
      if (pauseMs > 0) await sleep(pauseMs);
      send({
        ...base,
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
            finish_reason: null,
          },
        ],
      });
    }
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
    out.end('data: [DONE]\n\n');
    return reply;
  });

  await http.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `${listeningUrl(http.server, '127.0.0.1')}/v1`,
    get mode() {
      return fake.mode;
    },
    set mode(mode: FakeOpenAiMode) {
      fake.mode = mode;
    },
    requests: fake.requests,
    close: async () => {
      http.server.closeAllConnections();
      await http.close();
    },
  };
}
