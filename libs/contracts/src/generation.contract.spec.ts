import { describe, expect, it } from '@jest/globals';
import { countWords, PERSON_MODEL_ID } from './constants/index.js';
import { DebateSettings, generationContracts, RunEvent } from './generation.contract.js';

const speaker = (model: string, stance: number) => ({
  model,
  stance,
  rhetoricStyle: 'standard',
  personality: '',
});
const twoModels = {
  topic: 'Should cities ban cars?',
  debateFormat: 'structured',
  moderatorEnabled: true,
  first: speaker('offline', 0.8),
  second: speaker('gpt-4', -0.8),
};

function refusals(settings: unknown): string[] {
  const parsed = DebateSettings.safeParse(settings);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

describe('DebateSettings', () => {
  it('takes two models of the catalogue without a person', () => {
    expect(refusals(twoModels)).toEqual([]);
  });

  it('refuses the person model id on either side when no side is a person', () => {
    expect(refusals({ ...twoModels, first: speaker(PERSON_MODEL_ID, 0.8) })).toEqual([
      'The model "person" needs the debate\'s person side to be set',
    ]);
    expect(refusals({ ...twoModels, second: speaker(PERSON_MODEL_ID, -0.8) })).toHaveLength(1);
  });

  it("takes a person's side that has the person model, against a model", () => {
    const settings = {
      ...twoModels,
      second: speaker(PERSON_MODEL_ID, -0.8),
      person: { speaker: 'second', displayName: 'Ada' },
    };
    expect(refusals(settings)).toEqual([]);
    expect(DebateSettings.parse(settings).person).toEqual({
      speaker: 'second',
      displayName: 'Ada',
    });
  });

  it("refuses a person's side without the person model, and a person against a person", () => {
    const person = { speaker: 'first', displayName: 'Ada' };
    expect(refusals({ ...twoModels, person })).toEqual([
      'The person\'s side must have the model "person"',
    ]);
    const both = {
      ...twoModels,
      first: speaker(PERSON_MODEL_ID, 0.8),
      second: speaker(PERSON_MODEL_ID, -0.8),
      person,
    };
    expect(refusals(both)).toEqual([
      'Only the person\'s side may have the model "person"; the other side needs a model of the catalogue',
    ]);
  });

  it('refuses a model that does not take the other side from the person', () => {
    const against = (personStance: number, modelStance: number) =>
      refusals({
        ...twoModels,
        first: speaker(PERSON_MODEL_ID, personStance),
        second: speaker('gpt-4', modelStance),
        person: { speaker: 'first', displayName: 'Ada' },
      });
    const refused = [
      "Against a person the model takes the other side: a stance of at least 0.2 the other way from the person's, who is not neutral",
    ];
    expect(against(0.8, -0.2)).toEqual([]);
    expect(against(-0.8, 1)).toEqual([]);
    expect(against(0.8, 0)).toEqual(refused);
    expect(against(0.8, -0.1)).toEqual(refused);
    expect(against(0.8, 0.6)).toEqual(refused);
    expect(against(0, -0.8)).toEqual(refused);
  });

  it('refuses an empty or over-long display name, and a side that is neither', () => {
    const first = speaker(PERSON_MODEL_ID, 0.8);
    expect(
      refusals({ ...twoModels, first, person: { speaker: 'first', displayName: ' ' } }),
    ).not.toEqual([]);
    expect(
      refusals({ ...twoModels, first, person: { speaker: 'first', displayName: 'a'.repeat(81) } }),
    ).not.toEqual([]);
    expect(
      refusals({ ...twoModels, first, person: { speaker: 'both', displayName: 'Ada' } }),
    ).not.toEqual([]);
  });
});

describe('countWords', () => {
  it('counts runs of non-space, whatever the spacing', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   ')).toBe(0);
    expect(countWords(' Cars  kill.\nCities\tlive ')).toBe(4);
  });
});

describe('run events', () => {
  it("reads a runStopped of before the reason as the owner's Stop", () => {
    const event = RunEvent.parse({ type: 'runStopped', seq: 3, at: 1, freeDebateUsed: true });
    expect(event).toMatchObject({ type: 'runStopped', reason: 'owner' });
  });

  it('refuses a submitted turn longer than 20,000 characters', () => {
    const request = { userId: 'u', runId: 'r', turn: 1, text: 'a'.repeat(20_001) };
    expect(generationContracts.submitTurn.request.safeParse(request).success).toBe(false);
    expect(
      generationContracts.submitTurn.request.safeParse({ ...request, text: 'a' }).success,
    ).toBe(true);
  });
});
