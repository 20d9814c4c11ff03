import {
  type DebateSettings,
  generationContracts,
  type RunEvent,
  runInstanceKey,
} from '@debate/contracts';
import { processRegistry } from '@debate/nest';
import {
  eventually,
  type FakeOpenAi,
  metricValue,
  type ServiceUnderTest,
  startFakeOpenAi,
  startServiceUnderTest,
} from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { lastValueFrom, toArray } from 'rxjs';
import { GenerationServiceModule } from '../src/index.js';
import { UsageStandIn } from './usage-stand-in.js';

const ada = { userId: 'ada', email: 'ada@example.org' };

// Two speakers on two servers of different families, each configured as an operator might
// first try it (the forced function call), each answering as its documentation says.
describe('a debate between two models on two kinds of server', () => {
  const usage = new UsageStandIn();
  let ollama: FakeOpenAi;
  let llamaServer: FakeOpenAi;
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    ollama = await startFakeOpenAi({ family: 'ollama' });
    llamaServer = await startFakeOpenAi({ family: 'llamacpp' });
    generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) =>
        GenerationServiceModule.register({
          ...runtime,
          speakers: {
            MODEL_CATALOG: [
              {
                id: 'llama-local',
                label: 'Llama 3.1 8B (Ollama)',
                baseUrl: ollama.baseUrl,
                providerModel: 'llama3.1:8b',
                structuredOutput: 'tool_call',
                speakerMode: 'single',
                maxTokens: 800,
                maxConcurrentTurns: 2,
              },
              {
                id: 'qwen-gguf',
                label: 'Qwen 2.5 7B (llama.cpp)',
                baseUrl: llamaServer.baseUrl,
                apiKeyEnv: 'LLAMA_SERVER_KEY',
                providerModel: 'qwen2.5-7b-instruct-q4_k_m',
                structuredOutput: 'tool_call',
                speakerMode: 'single',
                maxTokens: 600,
                maxConcurrentTurns: 1,
              },
            ],
            OPENAI_MAX_RETRIES: 0,
            TURN_PAUSE_MS: 0,
          },
          secrets: { LLAMA_SERVER_KEY: 'sk-llama-server' },
        }),
      standIns: { usage: usage.module() },
    });
  });

  afterAll(async () => {
    await generation?.stop();
    await ollama?.close();
    await llamaServer?.close();
  });

  it('completes, every turn saying which model wrote it, each server asked in a mode it honours', async () => {
    const settings: DebateSettings = {
      topic: 'Should cities ban cars?',
      debateFormat: 'structured',
      moderatorEnabled: true,
      first: { model: 'llama-local', stance: 0.8, rhetoricStyle: 'factual', personality: '' },
      second: { model: 'qwen-gguf', stance: -0.8, rhetoricStyle: 'casual', personality: '' },
    };
    const started = await generation.client.request(generationContracts.start, {
      ...ada,
      settings,
    });
    if (!started.started) throw new Error(started.message);
    const events: RunEvent[] = await lastValueFrom(
      generation.client
        .stream(
          generationContracts.watch,
          { runId: started.runId, userId: ada.userId },
          { instance: runInstanceKey(started.runId) },
        )
        .pipe(toArray()),
    );
    expect(events.at(-1)?.type).toBe('runCompleted');
    const turns = events.flatMap((event) => (event.type === 'turnCompleted' ? [event] : []));
    expect(turns).toHaveLength(8);
    for (const turn of turns) {
      expect(turn.failed).toBe(false);
      const onOllama = turn.speaker !== 'Second Speaker';
      expect(turn.writtenBy).toEqual({
        kind: 'model',
        modelId: onOllama ? 'llama-local' : 'qwen-gguf',
        label: onOllama ? 'Llama 3.1 8B (Ollama)' : 'Qwen 2.5 7B (llama.cpp)',
        // As each server reported it.
        serverModel: onOllama ? 'llama3.1:8b' : 'qwen2.5-7b-instruct-q4_k_m',
        tokensIn: expect.any(Number),
        tokensOut: expect.any(Number),
        firstTokenMs: expect.any(Number),
        totalMs: expect.any(Number),
        turns: 1,
        failedTurns: 0,
      });
      expect(turn.text).toContain(`on "Should cities ban cars?"`);
    }

    // Ollama ignored the forced function call (the model answered in prose): asked again once
    // with a JSON schema, which every later turn of that model used from the start.
    expect(ollama.requests.map((request) => request.answeredAs)).toEqual([
      'prose',
      ...Array.from({ length: 5 }, () => 'content'),
    ]);
    expect(ollama.requests[1]?.body.response_format?.type).toBe('json_schema');
    expect(ollama.requests.slice(1).every((request) => request.body.tools === undefined)).toBe(
      true,
    );
    // llama-server without --jinja refused the tools, naming its flag: the same fall-back.
    expect(llamaServer.requests.map((request) => request.answeredAs)).toEqual([
      500,
      'content',
      'content',
      'content',
    ]);
    expect(llamaServer.requests[0]?.authorization).toBe('Bearer sk-llama-server');
    for (const request of [...ollama.requests, ...llamaServer.requests]) {
      expect(request.body.stream_options).toEqual({ include_usage: true });
    }
    expect(ollama.requests[0]?.body).toMatchObject({ model: 'llama3.1:8b', max_tokens: 800 });
    expect(llamaServer.requests[0]?.body).toMatchObject({
      model: 'qwen2.5-7b-instruct-q4_k_m',
      max_tokens: 600,
    });

    // The run's tokens go to the user's account when it settles.
    await eventually(
      async () => usage.callsFor(started.runId),
      (calls) => calls.includes('settle'),
    );
    const settled = usage.calls.find(
      (call) => call.runId === started.runId && call.kind === 'settle',
    );
    const total = (key: 'tokensIn' | 'tokensOut') =>
      turns.reduce((sum, turn) => sum + (turn.writtenBy[key] ?? 0), 0);
    expect(settled?.tokens).toEqual({ tokensIn: total('tokensIn'), tokensOut: total('tokensOut') });

    // Operators see each model on /metrics.
    expect(await metricValue('debate_model_turns_started_total', { model: 'llama-local' })).toBe(5);
    expect(await metricValue('debate_model_turns_started_total', { model: 'qwen-gguf' })).toBe(3);
    expect(await metricValue('debate_model_turns_failed_total', { model: 'qwen-gguf' })).toBe(0);
    expect(
      await metricValue('debate_model_turns_retried_total', {
        model: 'llama-local',
        reason: 'mode',
      }),
    ).toBe(1);
    expect(
      await metricValue('debate_model_tokens_total', { model: 'qwen-gguf', direction: 'out' }),
    ).toBe(
      turns
        .filter((turn) => turn.speaker === 'Second Speaker')
        .reduce((sum, turn) => sum + (turn.writtenBy.tokensOut ?? 0), 0),
    );
    expect(
      await processRegistry().getSingleMetricAsString('debate_model_first_token_seconds'),
    ).toContain('debate_model_first_token_seconds_count{model="llama-local"} 5');
  });
});
