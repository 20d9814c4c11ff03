import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import type { DebateSpeakerFieldsFragment } from '../../gql/graphql';
import { SpeakerFacts } from './DebateParts';
import { DebateRounds } from './DebateRounds';
import type { WrittenBy } from './provenance';
import { reviewText, stepsText } from './team-notes';
import { offlineSpeaker as offline } from '../../test/written-by';

const gpt4o: WrittenBy = {
  ...offline,
  kind: 'model',
  modelId: 'gpt-4o',
  label: 'GPT-4o',
  serverModel: 'gpt-4o-2024-08-06',
  tokensIn: 2_436,
  tokensOut: 690,
};

const first: DebateSpeakerFieldsFragment = {
  name: 'gpt-4o',
  stance: 0.6,
  rhetoricStyle: 'formal',
  writtenBy: gpt4o,
};
const second: DebateSpeakerFieldsFragment = {
  name: 'offline',
  stance: -0.6,
  rhetoricStyle: 'casual',
  writtenBy: offline,
};

describe(SpeakerFacts.name, () => {
  it('gives each speaker’s model by what wrote it (the history)', () => {
    const { container } = render(<SpeakerFacts model1={first} model2={second} />);
    const facts = [...container.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(facts).toEqual([
      'Model: GPT-4o · Position: Strongly For · Style: formal',
      'Model: Offline speaker · Position: Against · Style: casual',
    ]);
  });

  it('adds the server’s model and the tokens where there is room (the debate’s page)', () => {
    const { container } = render(<SpeakerFacts model1={first} model2={second} detailed />);
    const facts = [...container.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(facts).toEqual([
      'Model: GPT-4o (gpt-4o-2024-08-06) · 2,436 in / 690 out tokens · Position: Strongly For · Style: formal',
      'Model: Offline speaker · Position: Against · Style: casual',
    ]);
  });

  it('shows the catalogue id of a debate saved before provenance was kept', () => {
    render(
      <SpeakerFacts
        model1={{ ...first, name: 'gpt-4', writtenBy: null }}
        model2={{ ...second, name: 'gpt-4', writtenBy: null }}
      />,
    );
    expect(screen.getAllByText(/^Model: gpt-4 \(asked for\) · /)).toHaveLength(2);
  });
});

describe(DebateRounds.name, () => {
  it('heads each turn with its speaker and side, in its stance’s colour; the moderator neutral', () => {
    const round = { round: 1, text: 'A.', summary: 'A.', writtenBy: null, team: null };
    render(
      <DebateRounds
        rounds={[
          { ...round, speaker: 'First Speaker' },
          { ...round, speaker: 'Second Speaker' },
          { ...round, speaker: 'Moderator' },
        ]}
        sides={{ model1: { stance: 0.6 }, model2: { stance: -0.3 } }}
      />,
    );
    const turns = screen.getAllByRole('article');
    expect(turns.map((turn) => turn.querySelector('h4')?.textContent)).toEqual([
      'First Speaker · Strongly For',
      'Second Speaker · Against',
      'Moderator',
    ]);
    expect(turns.map((turn) => turn.className)).toEqual([
      'turn side-first stance-strongly-for',
      'turn side-second stance-against',
      'turn side-moderator',
    ]);
  });

  it('says briefly what wrote each round, and nothing for a round saved without it', () => {
    const { container } = render(
      <DebateRounds
        rounds={[
          {
            speaker: 'First Speaker',
            round: 1,
            text: 'A.',
            summary: 'A.',
            writtenBy: gpt4o,
            team: null,
          },
          {
            speaker: 'Second Speaker',
            round: 1,
            text: 'B.',
            summary: 'B.',
            writtenBy: offline,
            team: null,
          },
          {
            speaker: 'First Speaker',
            round: 2,
            text: 'C.',
            summary: 'C.',
            writtenBy: null,
            team: null,
          },
        ]}
        sides={{ model1: first, model2: second }}
      />,
    );
    expect([...container.querySelectorAll('.provenance')].map((p) => p.textContent)).toEqual([
      'Written by GPT-4o · 15.5 s',
      'Written by the offline speaker · 15.5 s',
    ]);
  });

  it("shows how a team made a round, collapsed; nothing for a single speaker's", () => {
    const team = {
      searched: false,
      evidence: [],
      plan: 'Lead with cost.',
      review: 'accepted',
      fixes: [],
      revised: false,
      steps: 3,
    };
    const { container } = render(
      <DebateRounds
        rounds={[
          {
            speaker: 'First Speaker',
            round: 1,
            text: 'A.',
            summary: 'A.',
            writtenBy: gpt4o,
            team,
          },
          {
            speaker: 'Second Speaker',
            round: 1,
            text: 'B.',
            summary: 'B.',
            writtenBy: offline,
            team: null,
          },
        ]}
        sides={{ model1: first, model2: second }}
      />,
    );
    const notes = [...container.querySelectorAll('details.team-notes')];
    expect(notes).toHaveLength(1);
    expect((notes[0] as HTMLDetailsElement).open).toBe(false);
    expect(notes[0]?.textContent).toContain('The reviewer accepted the first draft.');
    expect(reviewText({ ...team, review: 'failed' })).toBe(
      'The reviewer could not review the draft: it stands as written.',
    );
    expect(stepsText({ ...team, searched: true, steps: 4 })).toBe(
      'Made in 4 steps: searcher, analyzer, writer, reviewer.',
    );
    expect(notes[0]?.textContent).toContain('Made in 3 steps: analyzer, writer, reviewer.');
  });
});
