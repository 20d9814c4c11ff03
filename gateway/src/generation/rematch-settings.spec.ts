import { debateOf } from '@debate/testing';
import { describe, expect, it } from '@jest/globals';
import { rematchSettings } from './generation.resolver.js';

describe(rematchSettings.name, () => {
  it('keeps the motion, the format and each side, and puts each model on the other side', () => {
    const debate = debateOf('d1', {
      topic: 'Should the voting age be 16?',
      debateFormat: 'oxford',
      moderatorEnabled: true,
      model1: { ...debateOf('d1').model1, name: 'gpt-4', stance: 0.8, rhetoricStyle: 'factual' },
      model2: { ...debateOf('d1').model2, name: 'qwen', stance: -0.4, rhetoricStyle: 'emotional' },
    });
    expect(rematchSettings(debate)).toEqual({
      topic: 'Should the voting age be 16?',
      debateFormat: 'oxford',
      moderatorEnabled: true,
      first: { model: 'qwen', stance: 0.8, rhetoricStyle: 'factual', personality: '' },
      second: { model: 'gpt-4', stance: -0.4, rhetoricStyle: 'emotional', personality: '' },
    });
  });

  it('runs a debate saved before its format was kept in the default one, without a moderator', () => {
    const settings = rematchSettings(
      debateOf('d2', { debateFormat: null, moderatorEnabled: null }),
    );
    expect(settings).toMatchObject({ debateFormat: 'structured', moderatorEnabled: false });
  });
});
