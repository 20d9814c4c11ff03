import { catalogContracts, debateCategories } from '@debate/contracts';
import { describe, expect, it } from '@jest/globals';
import { LocalModelWatcher } from '../models/local-model.js';
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
  const quiet = { log: () => undefined, warn: () => undefined };
  // No LOCAL_MODEL_SERVER: no local model.
  const sut = new CatalogController(
    models,
    new LocalModelWatcher(undefined, () => undefined, quiet),
  );

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
    expect(catalog.localModel).toBeNull();
  });

  it("tells where the local model is, from its server's last answer", () => {
    const local = new LocalModelWatcher('http://127.0.0.1:8090', () => undefined, quiet);
    const withLocal = new CatalogController(models, local);
    // Before its server has answered: loading.
    expect(withLocal.get().localModel).toEqual({ status: 'loading', name: '', progress: null });
    local.take({
      kind: 'answered',
      health: {
        status: 'downloading',
        model: 'qwen2.5-1.5b-instruct',
        name: 'Qwen2.5 1.5B Instruct',
        progress: 0.43,
        reason: null,
        running: 0,
        waiting: 0,
      },
    });
    const catalog = catalogContracts.generationCatalog.response.parse(withLocal.get());
    expect(catalog.localModel).toEqual({
      status: 'downloading',
      name: 'Qwen2.5 1.5B Instruct',
      progress: 0.43,
    });
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
