import { describe, expect, it } from '@jest/globals';
import { debateToMarkdown, markdownFileName } from './markdown';

const debate = {
  id: 'd1',
  topic: 'Is *C++* better than Rust?',
  categories: ['Technology'],
  userDisplayName: 'Ada',
  sharedAt: '2026-11-20T10:00:00.000Z',
  upvotes: 1,
  downvotes: 0,
  model1: { name: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal' },
  model2: { name: 'gpt-3.5-turbo', stance: -0.6, rhetoricStyle: 'casual' },
  rounds: [
    { speaker: 'First Speaker', round: 1, text: 'Speed # matters.', summary: 'Fast.' },
    { speaker: 'Second Speaker', round: 1, text: 'Safety first.', summary: 'Safe.' },
  ],
};

describe(debateToMarkdown.name, () => {
  it('writes the topic, the speakers and each round with its summary, escaping Markdown', () => {
    const markdown = debateToMarkdown(debate);
    expect(markdown).toContain('# Is \\*C++\\* better than Rust?\n');
    expect(markdown).toContain('- **First Speaker**: gpt-4, Strongly For (0.6), formal style');
    expect(markdown).toContain('- **Second Speaker**: gpt-3.5-turbo, Against (-0.6), casual style');
    expect(markdown).toContain(
      '## Round 1 - First Speaker (Constructive Arguments)\n\nSpeed \\# matters.\n\n> Fast.',
    );
    expect(markdown).toContain('Shared 2026-11-20');
  });

  it('names the file after the topic', () => {
    expect(markdownFileName(debate)).toBe('is-c-better-than-rust.md');
    expect(markdownFileName({ topic: '???' })).toBe('debate.md');
  });
});
