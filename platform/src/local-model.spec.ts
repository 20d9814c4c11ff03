import type { LocalModelState, ModelServer, ModelServerOptions } from '@debate/embedded-model';
import { describe, expect, it } from '@jest/globals';
import { startLocalModel } from './local-model.js';

const env = {
  LOCAL_MODEL: 'on',
  LOCAL_MODEL_FILE: undefined,
  LOCAL_MODEL_CACHE: '/tmp/models',
  LOCAL_MODEL_THREADS: 1,
  LOCAL_MODEL_GPU: 'off',
  LOCAL_MODEL_SERVER: undefined,
} as const;

/** A model server that only listens, going through `states` as soon as it is started. */
function fakeServer(states: LocalModelState[]) {
  const started: ModelServerOptions[] = [];
  const start = (options: ModelServerOptions): Promise<ModelServer> => {
    started.push(options);
    for (const state of states) options.onState?.(state);
    const origin = 'http://127.0.0.1:4567';
    return Promise.resolve({
      origin,
      url: `${origin}/v1`,
      modelId: 'model',
      state: () => states.at(-1) ?? { status: 'loading' },
      health: () => {
        throw new Error('npm start does not ask the health of its model server');
      },
      ready: () => Promise.resolve(),
      close: () => Promise.resolve(),
    });
  };
  return { start, started };
}

const downloading = (receivedBytes: number): LocalModelState => ({
  status: 'downloading',
  receivedBytes,
  totalBytes: 1_117_320_736,
});

describe('the local model of npm start', () => {
  it('says how the download goes at most every 5 %, and a failure once', async () => {
    const lines: string[] = [];
    const server = fakeServer([
      downloading(0),
      downloading(10_000_000),
      downloading(50_000_000),
      downloading(56_000_000),
      downloading(60_000_000),
      downloading(480_000_000),
      downloading(481_000_000),
      { status: 'failed', reason: 'the checksum differs' },
      { status: 'failed', reason: 'the checksum differs' },
    ]);
    const model = await startLocalModel(env, (line) => lines.push(line), server.start);
    expect(model.server?.origin).toBe('http://127.0.0.1:4567');
    expect(server.started[0]).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      threads: 1,
      gpu: false,
      source: { cacheDir: '/tmp/models', download: { name: 'Qwen2.5 1.5B Instruct' } },
    });
    expect(lines).toEqual([
      'The local model is downloading: 0 % (0 MB of 1117 MB)',
      'The local model is downloading: 5 % (56 MB of 1117 MB)',
      'The local model is downloading: 42 % (480 MB of 1117 MB)',
      'The local model could not be fetched (the checksum differs): debates use the offline speaker. ' +
        'To use a file already on this machine: LOCAL_MODEL_FILE=/path/to/model.gguf npm start; ' +
        'to skip it: LOCAL_MODEL=off.',
    ]);
    expect(model.summary()).toBe('Local model: none (why is said above)');
  });

  it('serves LOCAL_MODEL_FILE without a download, and says why it did not load', async () => {
    const lines: string[] = [];
    const server = fakeServer([
      { status: 'loading' },
      { status: 'failed', reason: 'not a GGUF file' },
    ]);
    await startLocalModel(
      { ...env, LOCAL_MODEL_FILE: '/models/tiny.gguf' },
      (line) => lines.push(line),
      server.start,
    );
    expect(server.started[0]?.source).toEqual({ file: '/models/tiny.gguf' });
    expect(lines).toEqual([
      'The local model is loading',
      'The local model could not be loaded from LOCAL_MODEL_FILE=/models/tiny.gguf (not a GGUF file): ' +
        'debates use the offline speaker. Give LOCAL_MODEL_FILE a GGUF model; to skip it: LOCAL_MODEL=off.',
    ]);
  });

  it('says where the model is and that the offline speaker writes until it is ready', async () => {
    const model = await startLocalModel(env, () => {}, fakeServer([downloading(0)]).start);
    expect(model.summary()).toBe(
      'Local model: Qwen2.5 1.5B Instruct, kept in /tmp/models (fetched there in the background ' +
        'on the first start), served at http://127.0.0.1:4567/v1 with 1 thread; debates use the ' +
        'offline speaker until it is ready (LOCAL_MODEL=off skips it)',
    );
  });

  it('starts none with LOCAL_MODEL=off, or when LOCAL_MODEL_SERVER names one', async () => {
    const server = fakeServer([]);
    const off = await startLocalModel({ ...env, LOCAL_MODEL: 'off' }, () => {}, server.start);
    expect(off.server).toBeUndefined();
    expect(off.summary()).toMatch(/LOCAL_MODEL=off/);
    const given = await startLocalModel(
      { ...env, LOCAL_MODEL_SERVER: 'http://127.0.0.1:8090' },
      () => {},
      server.start,
    );
    expect(given.server).toBeUndefined();
    expect(server.started).toEqual([]);
  });

  it('goes on without it when the server cannot start, saying so once', async () => {
    const lines: string[] = [];
    const model = await startLocalModel(
      env,
      (line) => lines.push(line),
      () => Promise.reject(new Error('no llama.cpp build for this machine')),
    );
    expect(model.server).toBeUndefined();
    expect(lines).toEqual([
      'The local model could not be started (no llama.cpp build for this machine): ' +
        'debates use the offline speaker. To skip it: LOCAL_MODEL=off.',
    ]);
  });
});
