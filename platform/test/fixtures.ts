import type { DebateSettings } from '@debate/contracts';

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
