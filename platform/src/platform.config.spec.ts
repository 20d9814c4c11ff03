import { loadConfig, startOperationsServer } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  listenAddresses,
  listeningLine,
  localModelSettings,
  platformEnvSchema,
} from './platform.config.js';

/** This machine's first address on a network (not loopback); none: the test cannot tell. */
function networkAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  if (!found) throw new Error('This machine has no network address to try');
  return found.address;
}

/** Whether something answers GET /health/live on `host`:`port`. */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    return (await fetch(`http://${host}:${port}/health/live`)).ok;
  } catch {
    return false;
  }
}

/** The operations port started where npm start puts it with `env`; what answers where. */
async function reachable(
  env: Record<string, string>,
): Promise<{ loopback: boolean; network: boolean }> {
  const addresses = listenAddresses(loadConfig('the platform', platformEnvSchema, env));
  const sut = await startOperationsServer({ port: 0, host: addresses.operations, checks: {} });
  try {
    const port = Number(new URL(sut.url).port);
    return {
      loopback: await answers('127.0.0.1', port),
      network: await answers(networkAddress(), port),
    };
  } finally {
    await sut.close();
  }
}

describe('where npm start listens', () => {
  it('on loopback only by default, the web port and the operations port alike, and says so', async () => {
    const addresses = listenAddresses(loadConfig('the platform', platformEnvSchema, {}));
    expect(addresses).toEqual({ web: '127.0.0.1', operations: '127.0.0.1' });
    expect(await reachable({})).toEqual({ loopback: true, network: false });
    expect(listeningLine(addresses)).toBe(
      'Listening on this machine only (127.0.0.1): HOST=0.0.0.0 opens it to the network',
    );
  });

  it('on the network when HOST says so, the operations port following unless OPS_HOST says otherwise', async () => {
    expect(await reachable({ HOST: '0.0.0.0' })).toEqual({ loopback: true, network: true });
    expect(await reachable({ HOST: '0.0.0.0', OPS_HOST: '127.0.0.1' })).toEqual({
      loopback: true,
      network: false,
    });
    expect(listeningLine({ web: '0.0.0.0', operations: '0.0.0.0' })).toMatch(/open to the network/);
  });
});

describe('the local model of npm start', () => {
  const load = (env: Record<string, string>) => loadConfig('the platform', platformEnvSchema, env);

  it('is on by default, fetched into the cache, with half the cores', () => {
    const env = load({});
    expect(env.LOCAL_MODEL).toBe('on');
    expect(env.LOCAL_MODEL_FILE).toBeUndefined();
    expect(
      localModelSettings(env, { xdgCacheHome: '/var/cache/me', home: '/home/me', cores: 8 }),
    ).toEqual({ cacheDir: '/var/cache/me/debate/models', threads: 4, gpu: false });
    // XDG_CACHE_HOME unset (or empty): ~/.cache; one core: one thread.
    expect(localModelSettings(env, { xdgCacheHome: '', home: '/home/me', cores: 1 })).toEqual({
      cacheDir: '/home/me/.cache/debate/models',
      threads: 1,
      gpu: false,
    });
    expect(localModelSettings(env, { xdgCacheHome: '', home: '/home/me', cores: 3 }).threads).toBe(
      1,
    );
  });

  it('takes LOCAL_MODEL=off, a file on disk, a cache and a number of threads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'local-model-'));
    try {
      const file = join(dir, 'model.gguf');
      writeFileSync(file, 'GGUF');
      expect(load({ LOCAL_MODEL: 'off' }).LOCAL_MODEL).toBe('off');
      const env = load({
        LOCAL_MODEL_FILE: file,
        LOCAL_MODEL_CACHE: join(dir, 'cache'),
        LOCAL_MODEL_THREADS: '3',
        LOCAL_MODEL_GPU: 'on',
      });
      expect(localModelSettings(env, { cores: 16 })).toEqual({
        file,
        cacheDir: join(dir, 'cache'),
        threads: 3,
        gpu: true,
      });
      // Empty is unset, as for every variable.
      expect(
        load({ LOCAL_MODEL: '', LOCAL_MODEL_FILE: '', LOCAL_MODEL_THREADS: '' }),
      ).toMatchObject({
        LOCAL_MODEL: 'on',
        LOCAL_MODEL_FILE: undefined,
        LOCAL_MODEL_THREADS: undefined,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fetches from LOCAL_MODEL_URL with LOCAL_MODEL_SHA256, the two together or neither', () => {
    const url = 'https://models.example.internal/qwen2.5-1.5b-instruct-q4_k_m.gguf';
    const sha256 = 'AB'.repeat(32);
    const env = load({ LOCAL_MODEL_URL: url, LOCAL_MODEL_SHA256: sha256 });
    expect(localModelSettings(env, { cores: 2 })).toMatchObject({
      mirror: { url, sha256: sha256.toLowerCase() },
    });
    expect(localModelSettings(load({}), { cores: 2 })).not.toHaveProperty('mirror');
    // Empty is unset.
    expect(
      localModelSettings(load({ LOCAL_MODEL_URL: '', LOCAL_MODEL_SHA256: '' })),
    ).not.toHaveProperty('mirror');
    expect(() => load({ LOCAL_MODEL_URL: url })).toThrow(
      /LOCAL_MODEL_SHA256: is required with LOCAL_MODEL_URL/,
    );
    expect(() => load({ LOCAL_MODEL_SHA256: sha256 })).toThrow(
      /LOCAL_MODEL_URL: is required with LOCAL_MODEL_SHA256/,
    );
    expect(() =>
      load({ LOCAL_MODEL_URL: 'ftp://mirror/model.gguf', LOCAL_MODEL_SHA256: sha256 }),
    ).toThrow(/LOCAL_MODEL_URL: must be an http:\/\/ or https:\/\/ URL/);
    for (const digest of ['ab'.repeat(31), 'zz'.repeat(32), `${sha256}0`]) {
      expect(() => load({ LOCAL_MODEL_URL: url, LOCAL_MODEL_SHA256: digest })).toThrow(
        /LOCAL_MODEL_SHA256: must be a SHA-256 digest/,
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'local-model-'));
    try {
      const file = join(dir, 'model.gguf');
      writeFileSync(file, 'GGUF');
      expect(() =>
        load({ LOCAL_MODEL_FILE: file, LOCAL_MODEL_URL: url, LOCAL_MODEL_SHA256: sha256 }),
      ).toThrow(/LOCAL_MODEL_FILE: and LOCAL_MODEL_URL are both set/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not there, threads that are not a count, and other switches', () => {
    expect(() => load({ LOCAL_MODEL_FILE: '/nowhere/model.gguf' })).toThrow(/LOCAL_MODEL_FILE/);
    for (const threads of ['0', '-2', '1.5', 'many']) {
      expect(() => load({ LOCAL_MODEL_THREADS: threads })).toThrow(/LOCAL_MODEL_THREADS/);
    }
    for (const value of ['yes', 'true', 'ON']) {
      expect(() => load({ LOCAL_MODEL: value })).toThrow(/LOCAL_MODEL/);
      expect(() => load({ LOCAL_MODEL_GPU: value })).toThrow(/LOCAL_MODEL_GPU/);
    }
  });
});
