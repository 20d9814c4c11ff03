import {
  communityDebateContracts,
  type DebateCategory,
  type DebateSettings,
  debatesContracts,
  EXAMPLES_AUTHOR,
  EXAMPLES_USER_ID,
  generationContracts,
  OFFLINE_MODEL_ID,
  type RhetoricStyle,
} from '@debate/contracts';
import type { ServiceClient } from '@debate/nest';

interface Example {
  readonly topic: string;
  readonly categories: readonly [DebateCategory, ...DebateCategory[]];
  readonly styles: readonly [RhetoricStyle, RhetoricStyle];
}

/** The examples a first look finds: a spread of categories and styles, each speaker offline. */
export const EXAMPLES: readonly Example[] = [
  {
    topic: 'Should cities make public transport free?',
    categories: ['Politics', 'Economics'],
    styles: ['factual', 'emotional'],
  },
  {
    topic: 'Should social media be banned for children under 16?',
    categories: ['Technology', 'Society'],
    styles: ['standard', 'adversarial'],
  },
  {
    topic: 'Is it ethical to eat meat?',
    categories: ['Ethics', 'Philosophy'],
    styles: ['formal', 'casual'],
  },
  {
    topic: 'Should nuclear power be part of the fight against climate change?',
    categories: ['Environment', 'Science'],
    styles: ['factual', 'standard'],
  },
  {
    topic: 'Should homework be abolished?',
    categories: ['Society'],
    styles: ['casual', 'formal'],
  },
];

function settingsOf(example: Example): DebateSettings {
  const speaker = (stance: number, rhetoricStyle: RhetoricStyle) => ({
    model: OFFLINE_MODEL_ID,
    stance,
    rhetoricStyle,
    personality: '',
  });
  return {
    topic: example.topic,
    debateFormat: 'structured',
    moderatorEnabled: false,
    first: speaker(0.6, example.styles[0]),
    second: speaker(-0.6, example.styles[1]),
  };
}

/**
 * `npm start`'s first look: on a community with no debate, writes the examples with the offline
 * speaker (at once, no allowance), saves them to the examples account and shares them, through
 * the services' own requests. Once begun it finishes what an earlier start left undone (an
 * example not written, or not shared) and never writes one twice. Answers how many it shared.
 */
export async function seedExamples(client: ServiceClient): Promise<number> {
  const seeded = await client.request(debatesContracts.list, {
    userId: EXAMPLES_USER_ID,
    order: 'newest',
    limit: 50,
  });
  if (seeded.total === 0) {
    const community = await client.request(communityDebateContracts.rank, {
      sort: 'recent',
      period: 'all',
      utcOffsetMinutes: 0,
      starredOnly: false,
      limit: 1,
    });
    // People's debates are there already: no examples.
    if (!('debates' in community) || community.debates.length > 0) return 0;
  }
  let shared = 0;
  for (const example of EXAMPLES) {
    let debate = seeded.debates.find((saved) => saved.topic === example.topic);
    if (!debate) {
      const { runId } = await client.request(generationContracts.writeExample, {
        settings: settingsOf(example),
      });
      const saved = await client.request(debatesContracts.save, {
        userId: EXAMPLES_USER_ID,
        userDisplayName: EXAMPLES_AUTHOR,
        isPro: false,
        runId,
        categories: [...example.categories],
      });
      if (!saved.saved) {
        throw new Error(`The example '${example.topic}' was not saved: ${saved.message}`);
      }
      debate = saved.debate;
    }
    if (!debate.isPublic) {
      await client.request(debatesContracts.share, {
        userId: EXAMPLES_USER_ID,
        debateId: debate.id,
      });
      shared += 1;
    }
  }
  return shared;
}
