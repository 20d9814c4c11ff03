import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import type { CatalogQuery } from '../../gql/graphql';
import { renderWithProviders } from '../../test/render';
import { AboutPage } from './AboutPage';

const realFetch = globalThis.fetch;

afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The gateway answering the catalogue with these models. */
function catalogOf(models: CatalogQuery['catalog']['models'], searcher = false) {
  const catalog: CatalogQuery['catalog'] = {
    categories: ['Politics'],
    rhetoricStyles: ['standard'],
    debateFormats: ['structured'],
    roundTitles: ['Constructive Arguments', 'Rebuttal', 'Summary'],
    topics: ['Is open-source software a public good?'],
    models,
    searcher,
    localModel: null,
  };
  globalThis.fetch = jest.fn(async () => ({
    ok: true,
    status: 200,
    json: async () => ({ data: { catalog } }),
  })) as unknown as typeof fetch;
}

async function scienceText(): Promise<string> {
  renderWithProviders(<AboutPage />, { route: '/about' });
  fireEvent.click(screen.getByRole('tab', { name: 'The Science' }));
  await screen.findByText(/searcher/);
  return screen.getByRole('tabpanel').textContent ?? '';
}

describe(AboutPage.name, () => {
  it('says the speakers write alone when no model is a team', async () => {
    catalogOf([
      { id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'single' },
      {
        id: 'offline',
        label: 'Offline speaker',
        kind: 'offline',
        status: 'ok',
        speakerMode: 'single',
      },
    ]);
    const text = await scienceText();
    expect(text).toContain(
      'GPT-4o and Offline speaker write each speech in one pass, without a team.',
    );
    expect(text).not.toMatch(/speaks? as a team/);
    expect(text).not.toMatch(/The platform follows/);
  });

  it('names the models that speak as a team, and says what the team does', async () => {
    catalogOf([
      { id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'team' },
      {
        id: 'offline',
        label: 'Offline speaker',
        kind: 'offline',
        status: 'ok',
        speakerMode: 'single',
      },
    ]);
    const text = await scienceText();
    expect(text).toContain('GPT-4o speaks as a team: an analyzer plans each round');
    expect(text).toContain('Offline speaker writes each speech in one pass, without a team.');
  });

  it('says a searcher runs, and what it does, when a search backend is configured', async () => {
    catalogOf(
      [{ id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'team' }],
      true,
    );
    const text = await scienceText();
    expect(text).toContain('Before the analyzer, a searcher looks for evidence on the web');
    expect(text).not.toContain('No searcher runs here');
  });
});
