import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('the built web app', () => {
  it('contains neither the provider key nor its variable name, even when built with a key set', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'web-build-'));
    const canary = 'sk-canary-4f1e9b2c7d3a';
    try {
      const build = spawnSync(
        process.execPath,
        [
          join(workspaceRoot, 'node_modules/vite/bin/vite.js'),
          'build',
          '--config',
          'web/vite.config.ts',
          '--outDir',
          outDir,
        ],
        { cwd: workspaceRoot, env: { ...process.env, OPENAI_API_KEY: canary }, encoding: 'utf8' },
      );
      expect(build.status).toBe(0);
      const assets = files(outDir);
      expect(assets.length).toBeGreaterThan(2);
      for (const asset of assets) {
        const text = readFileSync(asset, 'utf8');
        expect(text).not.toContain(canary);
        expect(text).not.toContain('OPENAI_API_KEY');
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});
