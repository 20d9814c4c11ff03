import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { catalogContracts } from './catalog.contract.js';
import { ContractViolation, defineRequest, parsePayload } from './contract.js';
import { type Subject, serviceNames, subjects } from './subjects.js';

function allSubjects(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  return Object.values(node as Record<string, unknown>).flatMap(allSubjects);
}

describe('subjects', () => {
  it('names every subject <owner>.<entity>.<verb> with one of the five owners', () => {
    const names = allSubjects(subjects);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(/^(identity|usage|generation|debates|community)\.[a-z]+\.[a-z]+$/);
    }
  });

  it('declares each subject once', () => {
    const names = allSubjects(subjects);
    expect(new Set(names).size).toBe(names.length);
  });

  it('files every subject under the service that owns it, and gives its contract that owner', () => {
    for (const service of serviceNames) {
      for (const subject of allSubjects(subjects[service]) as Subject[]) {
        expect(subject.startsWith(`${service}.`)).toBe(true);
        expect(defineRequest(subject, z.object({}), z.object({})).owner).toBe(service);
      }
    }
    expect(Object.keys(subjects).sort()).toEqual([...serviceNames].sort());
  });
});

describe(parsePayload.name, () => {
  it('returns the parsed payload when it matches', () => {
    const sut = catalogContracts.generationCatalog;
    const catalog = {
      rhetoricStyles: ['standard'],
      debateFormats: ['structured'],
      models: [
        {
          id: 'offline',
          label: 'Offline speaker',
          kind: 'offline',
          status: 'ok',
          speakerMode: 'single',
        },
      ],
      searcher: false,
      localModel: null,
      roundTitles: ['Constructive Arguments'],
      topics: ['Should cities ban cars?'],
    };
    const parsed = parsePayload(sut.subject, 'response', sut.response, catalog);
    expect(parsed).toEqual(catalog);
  });

  it('names the subject and every bad field when it does not', () => {
    const sut = catalogContracts.generationCatalog;
    let caught: unknown;
    try {
      parsePayload(sut.subject, 'response', sut.response, { topics: [], models: 'gpt-4' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContractViolation);
    const violation = caught as ContractViolation;
    expect(violation.message).toContain('generation.catalog.get');
    expect(violation.issues.some((issue) => issue.startsWith('topics:'))).toBe(true);
    expect(violation.issues.some((issue) => issue.startsWith('models:'))).toBe(true);
    expect(violation.issues.some((issue) => issue.startsWith('rhetoricStyles:'))).toBe(true);
  });

  it('refuses fields the contract does not know', () => {
    const sut = catalogContracts.generationCatalog;
    expect(() => parsePayload(sut.subject, 'request', sut.request, { extra: true })).toThrow(
      ContractViolation,
    );
  });
});
