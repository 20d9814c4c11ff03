import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { RunRegistry } from './run-registry.js';

/** A run of `userId`'s that ended, completed or not. */
function end(registry: RunRegistry, runId: string, userId: string, completed: boolean) {
  const run = registry.create(runId, userId);
  if (completed) run.emit({ type: 'runCompleted' });
  else run.emit({ type: 'runFailed', message: 'failed' });
  registry.ended(run);
  return run;
}

describe(RunRegistry.name, () => {
  it("keeps a user's latest completed run until their next one, the others for a while", async () => {
    const registry = new RunRegistry(30, 0, 10_000);
    end(registry, 'first', 'ada', true);
    end(registry, 'failed', 'ada', false);
    end(registry, 'bob-1', 'bob', true);
    await sleep(80);
    // The latest completed runs are still there, long after the others' time.
    expect(registry.find('first', 'ada')).toBeDefined();
    expect(registry.find('failed', 'ada')).toBeUndefined();
    expect(registry.find('bob-1', 'bob')).toBeDefined();
    // Ada's next debate replaces her first, which goes after the usual time.
    end(registry, 'second', 'ada', true);
    expect(registry.find('first', 'ada')).toBeDefined();
    await sleep(80);
    expect(registry.find('first', 'ada')).toBeUndefined();
    expect(registry.find('second', 'ada')).toBeDefined();
    expect(registry.find('bob-1', 'bob')).toBeDefined();
    registry.onApplicationShutdown();
  });
});
