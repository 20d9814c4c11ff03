import { catalogContracts, debateCategories } from '@debate/contracts';
import { describe, expect, it } from '@jest/globals';
import { CatalogController } from './catalog.controller.js';
import { builtInTopics } from './catalog.data.js';

describe(CatalogController.name, () => {
  const sut = new CatalogController();

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
    expect(catalog.models).toEqual(['gpt-4', 'gpt-3.5-turbo']);
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
