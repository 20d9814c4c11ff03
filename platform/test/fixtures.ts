import type { DebateSettings } from '@debate/contracts';

/** The settings of a debate to start: the offline speaker for and against, `fields` overriding. */
export function settingsOf(topic: string, fields: Partial<DebateSettings> = {}): DebateSettings {
  return {
    topic,
    debateFormat: 'structured',
    moderatorEnabled: true,
    first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
    second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
    ...fields,
  };
}
