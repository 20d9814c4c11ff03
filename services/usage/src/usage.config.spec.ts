import { ConfigError, loadConfig } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { usageEnvSchema } from './usage.config.js';

describe("the usage service's environment", () => {
  it('gives back an abandoned run after an hour unless told otherwise', () => {
    expect(loadConfig('usage', usageEnvSchema, {}).USAGE_ABANDONED_RUN_MS).toBe(3_600_000);
    expect(
      loadConfig('usage', usageEnvSchema, { USAGE_ABANDONED_RUN_MS: '' }).USAGE_ABANDONED_RUN_MS,
    ).toBe(3_600_000);
    expect(
      loadConfig('usage', usageEnvSchema, { USAGE_ABANDONED_RUN_MS: '7200000' })
        .USAGE_ABANDONED_RUN_MS,
    ).toBe(7_200_000);
  });

  it('refuses a time that is not a whole number of milliseconds, or under a second', () => {
    for (const value of ['5', 'soon', '1500.5']) {
      expect(() => loadConfig('usage', usageEnvSchema, { USAGE_ABANDONED_RUN_MS: value })).toThrow(
        ConfigError,
      );
    }
  });

  it('lets a user start 5 debates a minute unless told otherwise, and refuses a limit under 1', () => {
    expect(loadConfig('usage', usageEnvSchema, {}).USAGE_STARTS_PER_MINUTE).toBe(5);
    expect(
      loadConfig('usage', usageEnvSchema, { USAGE_STARTS_PER_MINUTE: '12' })
        .USAGE_STARTS_PER_MINUTE,
    ).toBe(12);
    for (const value of ['0', '-1', 'many', '2.5']) {
      expect(() => loadConfig('usage', usageEnvSchema, { USAGE_STARTS_PER_MINUTE: value })).toThrow(
        ConfigError,
      );
    }
  });
});
