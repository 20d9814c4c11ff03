import { type GenerationCatalog, subjects } from '@debate/contracts';
import { type MessageSender, ServiceClient } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { of } from 'rxjs';
import { CatalogResolver } from './catalog.resolver.js';

const GENERATION_CATALOG: GenerationCatalog = {
  rhetoricStyles: ['standard'],
  debateFormats: ['structured'],
  models: [
    {
      id: 'offline',
      label: 'Offline speaker',
      kind: 'offline',
      status: 'ok',
      speakerMode: 'single',
    },
  ],
  searcher: false,
  localModel: { status: 'downloading', name: 'Qwen2.5 1.5B Instruct', progress: 0.43 },
  roundTitles: ['Constructive Arguments', 'Rebuttal', 'Summary'],
  topics: ['Is a hot dog a sandwich?'],
};

const CATEGORIES = [
  'Politics',
  'Technology',
  'Philosophy',
  'Science',
  'Society',
  'Economics',
  'Environment',
  'Ethics',
  'Culture',
  'Funny',
];

/** A resolver whose service client answers the generation catalog and records each subject. */
function resolverAsking(): { resolver: CatalogResolver; asked: string[] } {
  const asked: string[] = [];
  const sender: MessageSender = {
    send: <TResult>(pattern: string) => {
      asked.push(pattern);
      return of(GENERATION_CATALOG as TResult);
    },
  };
  return { resolver: new CatalogResolver(new ServiceClient(sender)), asked };
}

describe('CatalogResolver', () => {
  it('answers the categories from the contracts, asking no service', () => {
    const { resolver, asked } = resolverAsking();
    expect(resolver.categories()).toEqual(CATEGORIES);
    expect(asked).toEqual([]);
  });

  it("serves the catalog from the generation service's, with the same categories", async () => {
    const { resolver, asked } = resolverAsking();
    expect(await resolver.catalog()).toEqual({ ...GENERATION_CATALOG, categories: CATEGORIES });
    expect(asked).toEqual([subjects.generation.catalog.get]);
  });
});
