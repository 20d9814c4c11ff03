import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { type FakeOpenAi, startFakeOpenAi } from '@debate/testing';
import { OpenAiSpeaker, parseArgument, threeSentences } from './openai.speaker.js';
import type { SpeakerChunk, TurnRequest } from './speaker.js';

const request: TurnRequest = {
  topic: 'Should cities ban cars?',
  debateFormat: 'oxford',
  moderatorEnabled: false,
  speaker: 'Second Speaker',
  settings: { model: 'gpt-4', stance: -0.6, rhetoricStyle: 'factual', personality: 'a cyclist' },
  round: 2,
  roundTitle: 'Rebuttal',
  earlier: [
    {
      speaker: 'First Speaker',
      round: 1,
      roundTitle: 'Constructive Arguments',
      text: 'Cars choke our streets.',
      summary: 'Cars choke streets.',
    },
  ],
};

async function collect(stream: AsyncIterable<SpeakerChunk>): Promise<SpeakerChunk[]> {
  const chunks: SpeakerChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

// The OpenAI speaker against a local OpenAI-compatible server (the edge of the world).
describe('the OpenAI speaker', () => {
  let fake: FakeOpenAi;
  let speaker: OpenAiSpeaker;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: fake.baseUrl,
      timeout: 1_500,
      maxRetries: 1,
    });
    speaker = new OpenAiSpeaker(
      client,
      { 'gpt-4': 'provider-large', 'gpt-3.5-turbo': 'provider-small' },
      1_000,
    );
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('forces the function call and sends the round, the stance, the style and the debate so far', async () => {
    fake.mode = { kind: 'stream' };
    await collect(speaker.speak(request, new AbortController().signal));
    const sent = fake.requests.at(-1);
    expect(sent?.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({
      model: 'provider-large',
      max_tokens: 1000,
      stream: true,
      tool_choice: { type: 'function', function: { name: 'submit_argument' } },
    });
    const [system, user] = sent?.body.messages ?? [];
    expect(system?.content).toMatch(/Round 2, Rebuttal/);
    expect(system?.content).toMatch(/summary of it in at most 3 sentences/);
    expect(system?.content).toMatch(/Oxford/);
    expect(user?.content).toMatch(/Topic: Should cities ban cars\?/);
    expect(user?.content).toMatch(/Your stance: Against \(-0\.6/);
    expect(user?.content).toMatch(/Rhetoric style: factual/);
    expect(user?.content).toMatch(/Personality hints: a cyclist/);
    expect(user?.content).toMatch(
      /First Speaker, Constructive Arguments ---\nCars choke our streets\./,
    );
  });

  it('streams the argument out while the model is still writing it', async () => {
    fake.mode = { kind: 'stream', pieces: 12, pauseMs: 30 };
    const arrivals: Array<{ at: number; chunk: SpeakerChunk }> = [];
    for await (const chunk of speaker.speak(request, new AbortController().signal)) {
      arrivals.push({ at: Date.now(), chunk });
    }
    const deltas = arrivals.filter((arrival) => arrival.chunk.type === 'delta');
    const done = arrivals.at(-1);
    expect(deltas.length).toBeGreaterThan(3);
    // The first words arrived well before the turn was complete.
    expect((done?.at ?? 0) - (deltas[0]?.at ?? 0)).toBeGreaterThan(150);
    const streamed = deltas
      .map((arrival) => (arrival.chunk.type === 'delta' ? arrival.chunk.text : ''))
      .join('');
    expect(done?.chunk).toEqual({
      type: 'done',
      text: streamed,
      summary: 'The Second Speaker made a case. It had reasons. It had evidence.',
    });
  });

  it('repairs malformed arguments and cleans control characters', async () => {
    fake.mode = { kind: 'malformed' };
    const repaired = (await collect(speaker.speak(request, new AbortController().signal))).at(-1);
    expect(repaired).toMatchObject({
      type: 'done',
      text: expect.stringContaining('full argument'),
    });
    fake.mode = { kind: 'controlCharacters' };
    const cleaned = (await collect(speaker.speak(request, new AbortController().signal))).at(-1);
    expect(cleaned).toMatchObject({ type: 'done' });
    const text = cleaned?.type === 'done' ? cleaned.text : '';
    expect([...text].filter((character) => character.charCodeAt(0) < 0x20)).toEqual([]);
    expect(text).toContain('here is');
  });

  it.each([
    ['a 500', { kind: 'status', status: 500 } as const],
    ['a 429', { kind: 'status', status: 429 } as const],
    ['a stalled stream', { kind: 'stall' } as const],
  ])(
    'fails the turn on %s (after the retries)',
    async (_name, mode) => {
      fake.mode = mode;
      const before = fake.requests.length;
      await expect(collect(speaker.speak(request, new AbortController().signal))).rejects.toThrow();
      if (mode.kind === 'status') expect(fake.requests.length - before).toBe(2);
    },
    15_000,
  );
});

describe('parsing the function arguments', () => {
  it('keeps at most three sentences of the summary', () => {
    expect(threeSentences('One. Two! Three? Four.')).toBe('One. Two! Three?');
    expect(threeSentences('No full stop')).toBe('No full stop');
  });

  it('tries a lenient parse when the strict one fails', () => {
    expect(parseArgument('{"text": "A", "summary": "B.",')).toEqual({ text: 'A', summary: 'B.' });
    expect(() => parseArgument('{"summary": "no text"}')).toThrow();
  });
});
