import { describe, expect, it } from '@jest/globals';
import { debateToMarkdown, type ExportedDebate, markdownFileName } from './markdown';
import type { WrittenBy } from './provenance';
import { offlineSpeaker, offlineTurn, personSpeaker, personTurn } from '../../test/written-by';

/** A debate saved before provenance was kept: its speakers' catalogue ids are all it has. */
const debate: ExportedDebate = {
  topic: 'Is *C++* better than Rust?',
  categories: ['Technology'],
  sharedAt: '2026-11-20T10:00:00.000Z',
  model1: { name: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal', writtenBy: null },
  model2: { name: 'gpt-3.5-turbo', stance: -0.6, rhetoricStyle: 'casual', writtenBy: null },
  rounds: [
    {
      speaker: 'First Speaker',
      round: 1,
      text: 'Speed # matters.',
      summary: 'Fast.',
      writtenBy: null,
      team: null,
    },
    {
      speaker: 'Second Speaker',
      round: 1,
      text: 'Safety first.',
      summary: 'Safe.',
      writtenBy: null,
      team: null,
    },
  ],
  verdict: null,
};

/**
 * The same debate as the offline speaker wrote it, its speakers still carrying the 'gpt-4' they
 * asked for (as debates did before the catalogue): what wrote them must win.
 */
const offlineDebate: ExportedDebate = {
  ...debate,
  model1: { ...debate.model1, writtenBy: offlineSpeaker },
  model2: { ...debate.model2, name: 'gpt-4', writtenBy: offlineSpeaker },
  rounds: debate.rounds.map((round) => ({ ...round, writtenBy: offlineTurn })),
};

const modelTurn: WrittenBy = {
  kind: 'model',
  modelId: 'gpt-4o',
  label: 'GPT-4o',
  serverModel: 'gpt-4o-2024-08-06',
  tokensIn: 812,
  tokensOut: 230,
  firstTokenMs: 800,
  totalMs: 5_200,
  turns: 1,
  failedTurns: 0,
};

describe(debateToMarkdown.name, () => {
  it('writes the topic, the speakers and each round with its summary, escaping Markdown', () => {
    const markdown = debateToMarkdown(debate);
    expect(markdown).toContain('# Is \\*C++\\* better than Rust?\n');
    expect(markdown).toContain(
      '- **First Speaker**: gpt-4 (asked for), Strongly For (0.6), formal style',
    );
    expect(markdown).toContain(
      '- **Second Speaker**: gpt-3.5-turbo (asked for), Against (-0.6), casual style',
    );
    expect(markdown).toContain(
      '## Round 1 - First Speaker (Constructive Arguments)\n\nSpeed \\# matters.\n\n> Fast.',
    );
    expect(markdown).toContain('Shared 2026-11-20');
  });

  it('says a debate written offline was written by the offline speaker, and names no model', () => {
    const markdown = debateToMarkdown(offlineDebate);
    expect(markdown).toContain('- **First Speaker**: Offline speaker, Strongly For (0.6), formal');
    expect(markdown).toContain('- **Second Speaker**: Offline speaker, Against (-0.6), casual');
    expect(markdown).toContain(
      '## Round 1 - First Speaker (Constructive Arguments)\n\nWritten by the offline speaker · 5.2 s\n\nSpeed',
    );
    expect(markdown.match(/Written by the offline speaker/g)).toHaveLength(2);
    expect(markdown).not.toMatch(/gpt/i);
  });

  it('gives a model’s label, its server’s model and its tokens, per speaker and per round', () => {
    const markdown = debateToMarkdown({
      ...debate,
      model1: {
        ...debate.model1,
        name: 'gpt-4o',
        writtenBy: { ...modelTurn, tokensIn: 2_436, tokensOut: 690, turns: 3 },
      },
      model2: { ...offlineDebate.model2, name: 'offline' },
      rounds: debate.rounds.map((round, index) => ({
        ...round,
        writtenBy: index === 0 ? modelTurn : offlineTurn,
      })),
    });
    expect(markdown).toContain(
      '- **First Speaker**: GPT-4o (gpt-4o-2024-08-06), 2,436 in / 690 out tokens, Strongly For',
    );
    expect(markdown).toContain('- **Second Speaker**: Offline speaker, Against');
    expect(markdown).toContain(
      'Written by GPT-4o (gpt-4o-2024-08-06) · 812 in / 230 out tokens · first words 0.8 s · 5.2 s\n\nSpeed',
    );
    expect(markdown).toContain('Written by the offline speaker · 5.2 s\n\nSafety first.');
  });

  it("includes how a team made a round: its sources, the plan, the reviewer's fixes, the steps", () => {
    const markdown = debateToMarkdown({
      ...debate,
      rounds: debate.rounds.map((round, index) => ({
        ...round,
        team:
          index === 0
            ? {
                searched: true,
                evidence: [{ title: 'Rust *vs* C++', url: 'https://example.org/a%20b(1)' }],
                plan: 'Lead with *speed*.',
                review: 'fixes',
                fixes: ['Cite a benchmark.'],
                revised: true,
                steps: 5,
              }
            : null,
      })),
    });
    expect(markdown).toContain(
      '### How this speech was made\n\nSources the searcher found (cited as [n]):\n\n' +
        '1. [Rust \\*vs\\* C++](https://example.org/a%20b%281%29)\n\n' +
        "The analyzer's plan: Lead with \\*speed\\*.\n\n" +
        'The reviewer asked for these fixes, and the writer revised the speech:\n\n' +
        '- Cite a benchmark.\n\nMade in 5 steps: searcher, analyzer, writer, reviewer, revision.',
    );
    expect(markdown.match(/How this speech was made/g)).toHaveLength(1);
  });

  it('names the file after the topic', () => {
    expect(markdownFileName(debate)).toBe('is-c-better-than-rust.md');
    expect(markdownFileName({ topic: '???' })).toBe('debate.md');
  });
});

describe('the export of a debate against a model', () => {
  it('says the person wrote their side and their turns, by name, with no style or timing', () => {
    const markdown = debateToMarkdown({
      ...offlineDebate,
      model1: { name: 'person', stance: 0.8, rhetoricStyle: 'standard', writtenBy: personSpeaker },
      rounds: offlineDebate.rounds.map((round) =>
        round.speaker === 'First Speaker' ? { ...round, writtenBy: personTurn } : round,
      ),
    });
    expect(markdown).toContain(
      '- **First Speaker**: Written by Ada Lovelace, Strongly For (0.8)\n',
    );
    expect(markdown).toContain(
      '## Round 1 - First Speaker (Constructive Arguments)\n\nWritten by Ada Lovelace\n\nSpeed',
    );
    expect(markdown).toContain('- **Second Speaker**: Offline speaker, Against (-0.6), casual');
  });
});
