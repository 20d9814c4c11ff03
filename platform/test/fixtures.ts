import type { Debate, DebateSettings } from '@debate/contracts';

const DAY = 24 * 60 * 60_000;

/** A shared debate as the debates service publishes it, with `fields` overriding the defaults. */
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

/** The settings of a debate to start: GPT-4 for, GPT-3.5 against, `fields` overriding. */
export function settingsOf(topic: string, fields: Partial<DebateSettings> = {}): DebateSettings {
  return {
    topic,
    debateFormat: 'structured',
    moderatorEnabled: true,
    first: { model: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
    second: { model: 'gpt-3.5-turbo', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
    ...fields,
  };
}
