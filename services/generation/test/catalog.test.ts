import { catalogContracts, debateFormats, rhetoricStyles, roundTitles } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GenerationServiceModule } from '../src/index.js';

// What the engine page is offered, asked as the gateway asks it.
describe('the generation catalog', () => {
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) =>
        GenerationServiceModule.register({
          ...runtime,
          // The spec's two models, as an operator gets them with only an OpenAI key.
          speakers: { OPENAI_API_KEY: 'sk-never-sent', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
        }),
    });
  });

  afterAll(async () => {
    await generation?.stop();
  });

  it('offers the settings a debate can be started with, as the contracts accept them', async () => {
    const catalog = await generation.client.request(catalogContracts.generationCatalog, {});
    expect(catalog).toMatchObject({
      rhetoricStyles: [...rhetoricStyles],
      debateFormats: [...debateFormats],
      models: [
        { id: 'gpt-4', label: 'gpt-4', kind: 'model', status: 'ok', speakerMode: 'single' },
        {
          id: 'gpt-3.5-turbo',
          label: 'gpt-3.5-turbo',
          kind: 'model',
          status: 'ok',
          speakerMode: 'single',
        },
        {
          id: 'offline',
          label: 'Offline speaker',
          kind: 'offline',
          status: 'ok',
          speakerMode: 'single',
        },
      ],
      searcher: false,
      // No LOCAL_MODEL_SERVER: no local model.
      localModel: null,
      roundTitles: [...roundTitles],
    });
    // Nothing of a model's server reaches the catalogue: no key, no URL, no provider model.
    const text = JSON.stringify(catalog);
    expect(text).not.toContain('sk-never-sent');
    expect(text).not.toContain('127.0.0.1:9');
    expect(text).not.toContain('gpt-4o');
  });

  it('offers distinct built-in topics, each a question', async () => {
    const { topics } = await generation.client.request(catalogContracts.generationCatalog, {});
    expect(topics.length).toBeGreaterThan(10);
    expect(new Set(topics).size).toBe(topics.length);
    for (const topic of topics) expect(topic).toMatch(/\?$/);
  });
});

// A local model server that has not answered yet (it starts beside the service): said, not offered.
describe('the generation catalog with a local model server', () => {
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) =>
        GenerationServiceModule.register({
          ...runtime,
          speakers: { LOCAL_MODEL_SERVER: 'http://127.0.0.1:9' },
        }),
    });
  });

  afterAll(async () => {
    await generation?.stop();
  });

  it('says the local model is loading, and offers the offline speaker alone meanwhile', async () => {
    const catalog = await generation.client.request(catalogContracts.generationCatalog, {});
    expect(catalog.localModel).toEqual({ status: 'loading', name: '', progress: null });
    expect(catalog.models.map((model) => model.id)).toEqual(['offline']);
  });
});
