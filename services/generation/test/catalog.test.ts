import {
  catalogContracts,
  debateFormats,
  rhetoricStyles,
  roundTitles,
  speakerModels,
} from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GenerationServiceModule } from '../src/index.js';

// What the engine page is offered, asked as the gateway asks it.
describe('the generation catalog', () => {
  let generation: ServiceUnderTest;

  beforeAll(async () => {
    generation = await startServiceUnderTest({
      service: 'generation',
      register: (runtime) => GenerationServiceModule.register(runtime),
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
      models: [...speakerModels],
      roundTitles: [...roundTitles],
    });
  });

  it('offers distinct built-in topics, each a question', async () => {
    const { topics } = await generation.client.request(catalogContracts.generationCatalog, {});
    expect(topics.length).toBeGreaterThan(10);
    expect(new Set(topics).size).toBe(topics.length);
    for (const topic of topics) expect(topic).toMatch(/\?$/);
  });
});
