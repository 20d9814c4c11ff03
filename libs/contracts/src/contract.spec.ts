import { describe, expect, it } from '@jest/globals';
import { catalogContracts } from './catalog.contract.js';
import { ContractViolation, parsePayload } from './contract.js';
import { healthContracts } from './health.contract.js';
import { serviceNames, subjects } from './subjects.js';

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

  it('gives every service a health check owned by that service', () => {
    for (const service of serviceNames) {
      expect(healthContracts[service].owner).toBe(service);
      expect(healthContracts[service].subject).toBe(`${service}.health.check`);
    }
  });
});

describe(parsePayload.name, () => {
  it('returns the parsed payload when it matches', () => {
    const sut = healthContracts.usage;
    const parsed = parsePayload(sut.subject, 'response', sut.response, {
      service: 'usage',
      status: 'up',
      uptimeSeconds: 3,
    });
    expect(parsed).toEqual({ service: 'usage', status: 'up', uptimeSeconds: 3 });
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
    const sut = healthContracts.identity;
    expect(() => parsePayload(sut.subject, 'request', sut.request, { extra: true })).toThrow(
      ContractViolation,
    );
  });
});
