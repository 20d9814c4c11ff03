import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@debate/nest';
import { speakerEnvSchema } from '../generation.config.js';
import { configuredModels } from './model-catalog.js';

const catalogue = (value: unknown[]) =>
  loadConfig('generation', speakerEnvSchema, {
    MODEL_CATALOG: JSON.stringify(value),
  });

describe(configuredModels.name, () => {
  it("offers the spec's two models on OPENAI_* when only a key is set, and nothing without one", () => {
    const env = loadConfig('generation', speakerEnvSchema, {
      OPENAI_API_KEY: 'sk-openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
      OPENAI_MODEL_GPT4: 'gpt-4.1',
    });
    expect(configuredModels(env, {})).toEqual([
      {
        id: 'gpt-4',
        label: 'gpt-4',
        baseUrl: 'http://127.0.0.1:8000/v1',
        apiKeyEnv: 'OPENAI_API_KEY',
        apiKey: 'sk-openai',
        providerModel: 'gpt-4.1',
        structuredOutput: 'tool_call',
        speakerMode: 'single',
        maxTokens: 1000,
        maxConcurrentTurns: 8,
      },
      expect.objectContaining({ id: 'gpt-3.5-turbo', providerModel: 'gpt-4o-mini' }),
    ]);
    expect(configuredModels(loadConfig('generation', speakerEnvSchema, {}), {})).toEqual([]);
  });

  it('reads MODEL_CATALOG with its defaults, each key from the variable it names', () => {
    const env = catalogue([
      {
        id: 'llama-local',
        label: 'Llama',
        baseUrl: 'http://ollama:11434/v1',
        providerModel: 'llama3.1:8b',
      },
      {
        id: 'qwen',
        label: 'Qwen',
        apiKeyEnv: 'VLLM_KEY',
        providerModel: 'Qwen/Qwen2.5',
        structuredOutput: 'json_schema',
        speakerMode: 'team',
      },
    ]);
    expect(configuredModels(env, { VLLM_KEY: 'token-abc' })).toEqual([
      {
        id: 'llama-local',
        label: 'Llama',
        baseUrl: 'http://ollama:11434/v1',
        apiKey: undefined,
        providerModel: 'llama3.1:8b',
        structuredOutput: 'tool_call',
        speakerMode: 'single',
        maxTokens: 1000,
        maxConcurrentTurns: 8,
      },
      expect.objectContaining({
        id: 'qwen',
        apiKey: 'token-abc',
        structuredOutput: 'json_schema',
        speakerMode: 'team',
      }),
    ]);
  });

  it('refuses to start on a key variable that is not set, naming it', () => {
    const env = catalogue([
      { id: 'qwen', label: 'Qwen', apiKeyEnv: 'VLLM_KEY', providerModel: 'q' },
    ]);
    expect(() => configuredModels(env, {})).toThrow(
      'MODEL_CATALOG: model "qwen" reads its key from VLLM_KEY, which is not set',
    );
  });

  it.each([
    ['not JSON', '[{"id": ', /MODEL_CATALOG: must be a JSON array of models/],
    [
      'a twice-listed id',
      JSON.stringify([
        { id: 'a', label: 'A', providerModel: 'a' },
        { id: 'a', label: 'B', providerModel: 'b' },
      ]),
      /a model id is listed twice/,
    ],
    [
      'the offline id',
      JSON.stringify([{ id: 'offline', label: 'A', providerModel: 'a' }]),
      /"offline" and "offline-team" are the offline speaker's ids/,
    ],
    [
      "the offline team's id",
      JSON.stringify([{ id: 'offline-team', label: 'A', providerModel: 'a' }]),
      /"offline" and "offline-team" are the offline speaker's ids/,
    ],
    [
      'a key in the catalogue',
      JSON.stringify([{ id: 'a', label: 'A', providerModel: 'a', apiKey: 'sk-x' }]),
      /MODEL_CATALOG\.0: Unrecognized key: "apiKey"/,
    ],
    [
      'an unknown mode',
      JSON.stringify([{ id: 'a', label: 'A', providerModel: 'a', structuredOutput: 'grammar' }]),
      /MODEL_CATALOG\.0\.structuredOutput/,
    ],
    [
      'a key read from a setting of the service',
      JSON.stringify([{ id: 'a', label: 'A', providerModel: 'a', apiKeyEnv: 'MONGO_PASSWORD' }]),
      /apiKeyEnv: is a variable the generation service, Node or OpenTelemetry reads as a setting/,
    ],
    [
      'credentials in the URL',
      JSON.stringify([
        {
          id: 'a',
          label: 'A',
          providerModel: 'a',
          baseUrl: 'https://user:secret@llm.example.org/v1',
        },
      ]),
      /baseUrl: may not hold credentials/,
    ],
    [
      'a URL that is not http(s)',
      JSON.stringify([
        { id: 'a', label: 'A', providerModel: 'a', baseUrl: 'ftp://llm.example.org/' },
      ]),
      /baseUrl: must be an http:\/\/ or https:\/\/ URL/,
    ],
  ])('refuses %s', (_name, value, message) => {
    expect(() => loadConfig('generation', speakerEnvSchema, { MODEL_CATALOG: value })).toThrow(
      message,
    );
  });
});
