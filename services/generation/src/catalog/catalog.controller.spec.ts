import { catalogContracts, debateCategories } from '@debate/contracts';
import { describe, expect, it } from '@jest/globals';
import { Models } from '../models/models.js';
import { CatalogController } from './catalog.controller.js';
import { builtInTopics } from './catalog.data.js';

describe(CatalogController.name, () => {
  const models = new Models(
    [
      {
        id: 'local-llama',
        label: 'Llama 3.1 8B (local)',
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: undefined,
        providerModel: 'llama3.1:8b',
        structuredOutput: 'json_schema',
        speakerMode: 'team',
        maxTokens: 800,
        maxConcurrentTurns: 2,
      },
    ],
    {
      timeoutMs: 1_000,
      maxRetries: 0,
      idleTimeoutMs: 1_000,
      offline: { tokensPerSecond: 0, firstTokenDelayMs: 0 },
    },
    { log: () => undefined, warn: () => undefined },
  );
  const sut = new CatalogController(models);

  it('offers what the engine page needs, in the shape of its contract', () => {
    const catalog = catalogContracts.generationCatalog.response.parse(sut.get());
    expect(catalog.rhetoricStyles).toEqual([
      'standard',
      'formal',
      'casual',
      'emotional',
      'factual',
      'adversarial',
    ]);
    expect(catalog.debateFormats).toEqual([
      'structured',
      'oxford',
      'crossfire',
      'parliamentary',
      'comment_section',
    ]);
    // The operator's models, then the offline speaker, labelled as what it is; no key, no URL.
    expect(catalog.models).toEqual([
      {
        id: 'local-llama',
        label: 'Llama 3.1 8B (local)',
        kind: 'model',
        status: 'ok',
        speakerMode: 'team',
      },
      {
        id: 'offline',
        label: 'Offline speaker',
        kind: 'offline',
        status: 'ok',
        speakerMode: 'single',
      },
    ]);
    expect(catalog.roundTitles).toEqual(['Constructive Arguments', 'Rebuttal', 'Summary']);
  });

  it('has about 80 distinct topics, each phrased as a question', () => {
    const { topics } = sut.get();
    expect(topics.length).toBeGreaterThanOrEqual(75);
    expect(topics.length).toBeLessThanOrEqual(90);
    expect(new Set(topics.map((topic) => topic.toLowerCase())).size).toBe(topics.length);
    for (const topic of topics) expect(topic).toMatch(/^[A-Z].{10,}\?$/);
  });

  it('spreads the topics over the ten community categories', () => {
    expect(Object.keys(builtInTopics)).toEqual(debateCategories);
    for (const list of Object.values(builtInTopics)) expect(list.length).toBeGreaterThanOrEqual(5);
  });

  it('hands out a fresh copy each time', () => {
    sut.get().topics.length = 0;
    expect(sut.get().topics.length).toBeGreaterThan(0);
  });
});
