import type { Debate } from '@debate/contracts';

const DAY = 24 * 60 * 60_000;

/**
 * A shared debate as the debates service announces it (saved ten days ago, shared now, three
 * rounds of both speakers), with `fields` overriding the defaults.
 */
export function debateOf(id: string, fields: Partial<Debate> = {}): Debate {
  return {
    id,
    userId: `author-${id}`,
    userDisplayName: '',
    topic: `Topic ${id}`,
    categories: ['Politics'],
    timestamp: new Date(Date.now() - 10 * DAY).toISOString(),
    sharedAt: new Date().toISOString(),
    views: 0,
    upvotes: 0,
    downvotes: 0,
    isPublic: true,
    isPro: false,
    model1: { name: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal' },
    model2: { name: 'gpt-4', stance: -0.6, rhetoricStyle: 'casual' },
    rounds: [1, 2, 3].flatMap((round) => [
      { speaker: 'First Speaker' as const, round, text: `For ${round}`, summary: `F${round}` },
      { speaker: 'Second Speaker' as const, round, text: `Against ${round}`, summary: `A${round}` },
    ]),
    ...fields,
  };
}
