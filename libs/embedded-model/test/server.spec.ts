import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyModelFile, untilPasses } from '@debate/testing';
import { startModelServer, type ModelServer } from '../src/index.js';

/**
 * The server on the tests' tiny model (random weights, a vocabulary of printable ASCII): the
 * real llama.cpp engine answers, so what is asserted is the protocol and the behaviour, never
 * the words.
 */
const ARGUMENT = {
  type: 'object',
  properties: { text: { type: 'string' }, summary: { type: 'string' } },
  required: ['text', 'summary'],
  additionalProperties: false,
} as const;

/** An answer that cannot end early: the grammar demands sixty strings. */
const LONG = {
  type: 'json_schema',
  json_schema: {
    name: 'long',
    schema: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 60 }, (_, index) => [`p${index}`, { type: 'string' }]),
      ),
      required: Array.from({ length: 60 }, (_, index) => `p${index}`),
      additionalProperties: false,
    },
  },
};

let server: ModelServer;
let model: string;

async function post(body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, ...body }),
    ...init,
  });
}

/** The events of a streamed answer, up to [DONE]. */
async function events(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  const lines = text.split('\n\n').filter(Boolean);
  expect(lines.at(-1)).toBe('data: [DONE]');
  return lines.slice(0, -1).map((line) => JSON.parse(line.replace(/^data: /, '')));
}

function contentOf(chunks: Array<Record<string, unknown>>): string {
  return chunks
    .flatMap((chunk) => (chunk.choices as Array<{ delta: { content?: string } }>) ?? [])
    .map((choice) => choice.delta.content ?? '')
    .join('');
}

/** What /health says of the requests being answered and waiting. */
async function load(): Promise<{ running: number; waiting: number }> {
  return (await (await fetch(`${server.origin}/health`)).json()) as {
    running: number;
    waiting: number;
  };
}

const ask = [{ role: 'user', content: 'Argue for the motion "Cities should ban cars".' }];

beforeAll(async () => {
  const file = await tinyModelFile();
  server = await startModelServer({ source: { file }, threads: 1, sequences: 2, maxQueue: 1 });
  model = server.modelId;
  await server.ready();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the embedded model server', () => {
  it('says it is ready and lists its model', async () => {
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ready', model, progress: null });
    const models = (await (await fetch(`${server.url}/models`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(models.data.map((entry) => entry.id)).toEqual([model]);
  });

  it('answers a JSON schema with JSON that parses to it, and counts the tokens', async () => {
    const response = await post({
      messages: ask,
      max_tokens: 400,
      seed: 1,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'argument', strict: true, schema: ARGUMENT },
      },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      object: string;
      choices: Array<{ message: { role: string; content: string }; finish_reason: string }>;
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(body.object).toBe('chat.completion');
    const answer = JSON.parse(body.choices[0]?.message.content ?? '') as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(['text', 'summary']);
    expect(typeof answer.text).toBe('string');
    expect(body.choices[0]?.finish_reason).toBe('stop');
    // A character-level vocabulary: the prompt is at least as many tokens as the motion's letters.
    expect(body.usage.prompt_tokens).toBeGreaterThan(40);
    expect(body.usage.completion_tokens).toBeGreaterThan(5);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('streams the answer as server-sent events, with the usage last when asked', async () => {
    const response = await post({
      messages: ask,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 400,
      seed: 2,
      response_format: { type: 'json_schema', json_schema: { name: 'argument', schema: ARGUMENT } },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const chunks = await events(response);
    expect(chunks.length).toBeGreaterThan(5);
    const parsed = JSON.parse(contentOf(chunks)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['text', 'summary']);
    const finish = chunks.at(-2)?.choices as Array<{ finish_reason: string }>;
    expect(finish[0]?.finish_reason).toBe('stop');
    const last = chunks.at(-1) ?? {};
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ completion_tokens: expect.any(Number) });
  });

  it('stops at max_tokens (and max_completion_tokens) with finish_reason length', async () => {
    for (const limit of [{ max_tokens: 4 }, { max_completion_tokens: 4 }]) {
      const body = (await (await post({ messages: ask, ...limit, seed: 3 })).json()) as {
        choices: Array<{ finish_reason: string }>;
        usage: { completion_tokens: number };
      };
      expect(body.choices[0]?.finish_reason).toBe('length');
      expect(body.usage.completion_tokens).toBeLessThanOrEqual(4);
    }
  });

  it('gives the same answer for the same seed, and stops before a stop sequence', async () => {
    const once = async (seed: number) =>
      (
        (await (await post({ messages: ask, seed, temperature: 1, max_tokens: 30 })).json()) as {
          choices: Array<{ message: { content: string } }>;
        }
      ).choices[0]?.message.content;
    expect(await once(7)).toBe(await once(7));
    // The schema's grammar makes the answer begin {"text": the stop sequence '"' cuts it there.
    const stopped = (await (
      await post({
        messages: ask,
        stop: ['"'],
        max_tokens: 100,
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema: ARGUMENT } },
      })
    ).json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
    expect(stopped.choices[0]?.message.content.trim()).toBe('{');
    expect(stopped.choices[0]?.finish_reason).toBe('stop');
  });

  it("refuses a bad request with OpenAI's error shapes", async () => {
    const noMessages = await post({ messages: [] });
    expect(noMessages.status).toBe(400);
    expect(await noMessages.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: 'messages' },
    });
    const tools = await post({
      messages: ask,
      tools: [{ type: 'function', function: { name: 'x' } }],
    });
    expect(tools.status).toBe(400);
    expect(await tools.json()).toMatchObject({ error: { param: 'tools' } });
    const otherModel = await post({ messages: ask, model: 'gpt-4o' });
    expect(otherModel.status).toBe(404);
    expect(await otherModel.json()).toMatchObject({ error: { code: 'model_not_found' } });
    const notJson = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('writes two answers at once on the one model, and refuses one more than the queue holds', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    // Answers that cannot end before max_tokens (the grammar demands sixty strings), long enough
    // (about a second alone) that neither is over before the other has begun on a busy machine.
    const streamOne = async (index: number) => {
      const response = await post({
        messages: ask,
        stream: true,
        max_tokens: 1000,
        seed: index,
        response_format: LONG,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let first = true;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        if (first) started.push(performance.now());
        first = false;
      }
      finished.push(performance.now());
    };
    await Promise.all([streamOne(1), streamOne(2)]);
    // Both had begun before either ended: the two sequences were generated together.
    expect(Math.max(...started)).toBeLessThan(Math.min(...finished));

    // Two sequences busy and one waiting: a fourth is refused at once as busy (503).
    const controller = new AbortController();
    const long = (seed: number) =>
      post(
        { messages: ask, max_tokens: 3000, seed, response_format: LONG },
        { signal: controller.signal },
      ).catch(() => undefined);
    const running = [long(1), long(2), long(3)];
    await untilPasses(
      async () => expect(await load()).toMatchObject({ running: 2, waiting: 1 }),
      30_000,
    );
    const refused = await post({ messages: ask, max_tokens: 5 });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { type: 'unavailable_error' } });
    controller.abort();
    await Promise.all(running);
    // The one waiting left the queue with its client, the two running stopped.
    await untilPasses(async () => expect(await load()).toMatchObject({ running: 0, waiting: 0 }));
  });

  it('stops generating when the client goes away, freeing the model for the next', async () => {
    // Both sequences on answers of thousands of tokens, then both clients gone.
    const controller = new AbortController();
    const streams = await Promise.all(
      [5, 6].map((seed) =>
        post(
          { messages: ask, stream: true, max_tokens: 3000, seed, response_format: LONG },
          { signal: controller.signal },
        ),
      ),
    );
    for (const response of streams) {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.read();
    }
    expect(await load()).toMatchObject({ running: 2 });
    controller.abort();
    // Were the dropped answers still being written, both sequences would stay busy for
    // thousands of tokens: they are free within moments, and a new answer comes at once.
    await untilPasses(async () => expect(await load()).toMatchObject({ running: 0, waiting: 0 }));
    const next = await post({ messages: ask, max_tokens: 5 });
    expect(next.status).toBe(200);
  });
});

describe('the embedded model server stopping', () => {
  it('ends a stream under way with an error, never as a whole answer', async () => {
    const stopping = await startModelServer({
      source: { file: await tinyModelFile() },
      threads: 1,
    });
    await stopping.ready();
    const response = await fetch(`${stopping.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: stopping.modelId,
        messages: ask,
        stream: true,
        max_tokens: 3000,
        response_format: LONG,
      }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await stopping.close();
    let rest = '';
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toContain('"unavailable_error"');
    expect(rest).not.toContain('[DONE]');
  });
});

describe('the embedded model server before its model is ready', () => {
  it('answers 503 while downloading, with the progress on /health, and stops the download on close', async () => {
    // A mirror that sends a quarter of the file, then nothing more until it is closed.
    const sockets = new Set<Socket>();
    const mirror = createServer((_request, response) => {
      response.writeHead(200, { 'content-length': '4096' });
      response.write(Buffer.alloc(1024));
    });
    mirror.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    const { port } = mirror.address() as AddressInfo;
    const cacheDir = mkdtempSync(join(tmpdir(), 'model-cache-'));
    const downloading = await startModelServer({
      source: {
        download: {
          url: `http://127.0.0.1:${port}/model.gguf`,
          sha256: '0'.repeat(64),
          bytes: 4096,
          file: 'model.gguf',
          name: 'A model',
          license: 'NOASSERTION',
        },
        cacheDir,
      },
      threads: 1,
    });
    try {
      await untilPasses(async () => {
        const health = await fetch(`${downloading.origin}/health`);
        expect(health.status).toBe(503);
        expect(await health.json()).toMatchObject({
          status: 'downloading',
          model: 'model',
          name: 'A model',
          progress: 0.25,
        });
      });
      const models = await fetch(`${downloading.url}/models`);
      expect(models.status).toBe(503);
      expect(await models.json()).toMatchObject({ error: { type: 'unavailable_error' } });
    } finally {
      await downloading.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => mirror.close(resolve));
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('requires its key on every way to the API', async () => {
    const guarded = await startModelServer({
      source: { file: await tinyModelFile() },
      threads: 1,
      apiKey: 'secret',
    });
    try {
      await guarded.ready();
      const noKey = await fetch(`${guarded.url}/models`);
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
      // The same route, its path percent-encoded: still the API, still guarded.
      expect((await fetch(`${guarded.origin}/%761/models`)).status).toBe(401);
      const withKey = await fetch(`${guarded.url}/models`, {
        headers: { authorization: 'Bearer secret' },
      });
      expect(withKey.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('fails with the reason when the file is no model, and says so on /health', async () => {
    const broken = await startModelServer({ source: { file: '/dev/null' }, threads: 1 });
    try {
      await expect(broken.ready()).rejects.toThrow();
      const health = await fetch(`${broken.origin}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'failed', reason: expect.any(String) });
      const completion = await fetch(`${broken.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: broken.modelId, messages: ask }),
      });
      expect(completion.status).toBe(503);
    } finally {
      await broken.close();
    }
  });
});
