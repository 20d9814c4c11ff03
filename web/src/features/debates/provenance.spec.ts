import { describe, expect, it } from '@jest/globals';
import {
  failedTurnText,
  roundProvenance,
  speakerModel,
  speakerModelDetails,
  tokensText,
  turnProvenance,
  type WrittenBy,
} from './provenance';
import { offlineTurn as offline, personSpeaker, personTurn } from '../../test/written-by';

const model: WrittenBy = {
  kind: 'model',
  modelId: 'gpt-4o',
  label: 'GPT-4o',
  serverModel: 'gpt-4o-2024-08-06',
  tokensIn: 812,
  tokensOut: 230,
  firstTokenMs: 812,
  totalMs: 5_210,
  turns: 1,
  failedTurns: 0,
};

describe(turnProvenance.name, () => {
  it('names the model, the server’s model, the tokens, the first words and the total time', () => {
    expect(turnProvenance(model)).toBe(
      'Written by GPT-4o (gpt-4o-2024-08-06) · 812 in / 230 out tokens · first words 0.8 s · 5.2 s',
    );
  });

  it('says what is known and nothing more', () => {
    expect(
      turnProvenance({
        ...model,
        serverModel: null,
        tokensIn: null,
        tokensOut: null,
        firstTokenMs: null,
      }),
    ).toBe('Written by GPT-4o · 5.2 s');
    expect(turnProvenance({ ...model, tokensIn: null })).toContain(' · 230 out tokens · ');
  });

  it('names the offline speaker as what it is, with its time only', () => {
    expect(turnProvenance(offline)).toBe('Written by the offline speaker · 5.2 s');
  });

  it('says that the model failed a failed turn', () => {
    expect(turnProvenance({ ...model, failedTurns: 1 })).toBe('GPT-4o failed to write this turn');
    expect(failedTurnText(offline)).toBe('The offline speaker failed to write this turn');
  });
});

describe(roundProvenance.name, () => {
  it('is brief: who wrote the round and in how long', () => {
    expect(roundProvenance(model)).toBe('Written by GPT-4o · 5.2 s');
    expect(roundProvenance(offline)).toBe('Written by the offline speaker · 5.2 s');
  });
});

describe(tokensText.name, () => {
  it('groups thousands, and is null when the server said nothing', () => {
    expect(tokensText({ tokensIn: 12_480, tokensOut: 3_210 })).toBe('12,480 in / 3,210 out tokens');
    expect(tokensText({ tokensIn: null, tokensOut: null })).toBeNull();
  });
});

describe(speakerModel.name, () => {
  it('shows what really wrote the rounds, never the model the speaker asked for', () => {
    expect(speakerModel({ name: 'gpt-4', writtenBy: offline })).toBe('Offline speaker');
    expect(speakerModel({ name: 'gpt-4o', writtenBy: model })).toBe('GPT-4o');
  });

  it('shows the model a debate saved before provenance was kept asked for, as asked for', () => {
    expect(speakerModel({ name: 'gpt-4', writtenBy: null })).toBe('gpt-4 (asked for)');
  });
});

describe(speakerModelDetails.name, () => {
  const speaker = { ...model, tokensIn: 2_436, tokensOut: 690, turns: 3 };

  it('adds the server’s model, the token totals and the failed turns', () => {
    expect(speakerModelDetails({ name: 'gpt-4o', writtenBy: speaker })).toBe(
      'GPT-4o (gpt-4o-2024-08-06) · 2,436 in / 690 out tokens',
    );
    expect(speakerModelDetails({ name: 'gpt-4o', writtenBy: { ...speaker, failedTurns: 1 } })).toBe(
      'GPT-4o (gpt-4o-2024-08-06) · 2,436 in / 690 out tokens · 1 of 3 turns failed',
    );
  });

  it('says "Offline speaker" and nothing a model would claim for the offline speaker', () => {
    expect(speakerModelDetails({ name: 'offline', writtenBy: { ...offline, turns: 3 } })).toBe(
      'Offline speaker',
    );
  });
});

describe('a person’s turns', () => {
  it('are written by the person’s name, without seconds or tokens, wherever provenance is shown', () => {
    expect(turnProvenance(personTurn)).toBe('Written by Ada Lovelace');
    expect(roundProvenance(personTurn)).toBe('Written by Ada Lovelace');
    const side = { name: 'person', writtenBy: personSpeaker };
    expect(speakerModelDetails(side)).toBe('Written by Ada Lovelace');
    // The card's '{person} vs {model}' names the person as the model's place would.
    expect(speakerModel(side)).toBe('Ada Lovelace');
  });
});
