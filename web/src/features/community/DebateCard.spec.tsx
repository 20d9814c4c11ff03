import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import type { WrittenBy } from '../debates/provenance';
import type { CommunityDebate, PublicDebatePage } from './community.api';
import { offlineSpeaker as offline } from '../../test/written-by';
import { offlineDebate } from './community.fixtures';
import { DebateCard, EXAMPLE_NOTE, speakersLine, voteShares } from './DebateCard';

const model: WrittenBy = {
  ...offline,
  kind: 'model',
  modelId: 'gpt-4o',
  label: 'GPT-4o',
  serverModel: 'gpt-4o-2024-08-06',
  tokensIn: 2_436,
  tokensOut: 690,
};

describe(speakersLine.name, () => {
  it('names what wrote each speaker, with its position: "name (stance) vs name (stance)"', () => {
    expect(speakersLine(offlineDebate)).toBe(
      'Offline speaker (Strongly For) vs Offline speaker (Against)',
    );
    expect(
      speakersLine({
        model1: { ...offlineDebate.model1, name: 'gpt-4o', writtenBy: model },
        model2: offlineDebate.model2,
      }),
    ).toBe('GPT-4o (Strongly For) vs Offline speaker (Against)');
  });

  it('never names a model for the offline speaker, whatever the speaker was given', () => {
    const line = speakersLine({
      model1: { ...offlineDebate.model1, name: 'gpt-4' },
      model2: { ...offlineDebate.model2, name: 'gpt-4' },
    });
    expect(line).toBe('Offline speaker (Strongly For) vs Offline speaker (Against)');
    expect(line).not.toMatch(/gpt/i);
  });

  it('shows the catalogue ids of a debate saved before provenance was kept', () => {
    expect(
      speakersLine({
        model1: { ...offlineDebate.model1, name: 'gpt-4', writtenBy: null },
        model2: { ...offlineDebate.model2, name: 'gpt-3.5-turbo', writtenBy: null },
      }),
    ).toBe('gpt-4 (asked for) (Strongly For) vs gpt-3.5-turbo (asked for) (Against)');
  });
});

describe(DebateCard.name, () => {
  const noop = () => undefined;
  const card = (debate: CommunityDebate, expanded = false) =>
    renderWithProviders(
      <DebateCard
        debate={debate}
        starred={false}
        expanded={expanded}
        busy={false}
        onToggleExpanded={noop}
        onVote={noop}
        onToggleStar={noop}
      />,
      { route: '/community/ranking' },
    );
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('says nothing of minds changed until a reader has answered', () => {
    const { container, unmount } = card(offlineDebate);
    expect(container.textContent).not.toMatch(/minds changed/i);
    unmount();
    card({ ...offlineDebate, mindsChanged: { readers: 1, shares: null } });
    expect(
      screen.getByText(
        'Minds changed: 1 reader has said where they stood before and after reading; shown from 5.',
      ),
    ).toBeTruthy();
  });

  it('asks where the reader stands inside the open card, as a part of it, not a card in it', async () => {
    const page: PublicDebatePage = {
      ...offlineDebate,
      rounds: [],
      verdict: null,
      standBefore: null,
      askBefore: true,
      pairedWith: null,
    };
    globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
      const { query } = JSON.parse(String(init?.body)) as { query: string };
      if (!query.includes('query CommunityDebate(')) return new Promise<never>(() => undefined);
      return { ok: true, status: 200, json: async () => ({ data: { communityDebate: page } }) };
    }) as unknown as typeof fetch;
    const { container } = card(offlineDebate, true);
    await screen.findByRole('region', {
      name: 'Before you read: where do you stand on this motion?',
    });
    expect(container.querySelectorAll('.card')).toHaveLength(1);
  });

  it('says so on an example the platform seeded, and only there', () => {
    card({ ...offlineDebate, example: true });
    expect(screen.getByText(EXAMPLE_NOTE)).toBeTruthy();
  });

  it('does not call a person’s debate an example', () => {
    card(offlineDebate);
    expect(screen.queryByText(EXAMPLE_NOTE)).toBeNull();
  });

  it('says on its shared line whether the leaderboard rates it, or why not', () => {
    const sharedLine = (debate: CommunityDebate) => {
      const { container, unmount } = card(debate);
      const text = container.querySelector('.shared-line')?.textContent;
      unmount();
      return text;
    };
    expect(sharedLine(offlineDebate)).toMatch(/^Shared .+ · Rated$/);
    expect(
      sharedLine({ ...offlineDebate, rating: { text: 'Not rated: personality hints' } }),
    ).toMatch(/^Shared .+ · Not rated: personality hints$/);
    // Just shared, not read by the leaderboard yet: nothing said.
    expect(sharedLine({ ...offlineDebate, rating: null })).not.toMatch(/rated/i);
  });

  it('shows the offline speaker on the card of a debate written offline', () => {
    const { container } = card(offlineDebate);
    expect(
      screen.getByText('Offline speaker (Strongly For) vs Offline speaker (Against)'),
    ).toBeTruthy();
    expect(container.textContent).not.toMatch(/gpt/i);
  });
});

describe(voteShares.name, () => {
  it('gives each vote kind its rounded share of all votes', () => {
    expect(voteShares({ upvotes: 1, downvotes: 1, interesting: 1 })).toEqual({
      FOR: 33,
      INTERESTING: 33,
      AGAINST: 33,
    });
    expect(voteShares({ upvotes: 2, downvotes: 1, interesting: 0 })).toEqual({
      FOR: 67,
      INTERESTING: 0,
      AGAINST: 33,
    });
  });

  it('shows nothing but zeros before anyone votes', () => {
    expect(voteShares({ upvotes: 0, downvotes: 0, interesting: 0 })).toEqual({
      FOR: 0,
      INTERESTING: 0,
      AGAINST: 0,
    });
  });
});
