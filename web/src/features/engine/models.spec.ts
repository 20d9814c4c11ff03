import { describe, expect, it } from '@jest/globals';
import {
  catalogPollingInterval,
  chosenModel,
  LOCAL_MODEL_POLL_MS,
  localModelText,
  modelOptionText,
  type RunModel,
  whoWrites,
} from './models';

const offline: RunModel = { id: 'offline', label: 'Offline speaker', kind: 'offline' };
const gpt4o: RunModel = { id: 'gpt-4o', label: 'GPT-4o', kind: 'model' };
const llama: RunModel = { id: 'llama', label: 'Llama 3.1 (Ollama)', kind: 'model' };

describe(chosenModel.name, () => {
  const models = [{ id: 'gpt-4o' }, { id: 'offline' }];

  it('keeps a choice the catalogue offers', () => {
    expect(chosenModel(models, 'offline')).toBe('offline');
  });

  it('falls back to the catalogue’s first for a stale choice or none', () => {
    expect(chosenModel(models, 'gpt-4')).toBe('gpt-4o');
    expect(chosenModel(models, '')).toBe('gpt-4o');
    expect(chosenModel([{ id: 'offline' }], 'gpt-4')).toBe('offline');
  });
});

describe(localModelText.name, () => {
  const qwen = { name: 'Qwen2.5 1.5B Instruct', progress: null };

  it('says how far the download is, in whole percent done, and what debates use meanwhile', () => {
    expect(localModelText({ ...qwen, status: 'downloading', progress: 0.4371 })).toBe(
      'The local model is downloading: 43 % — debates use the offline speaker until it is ready',
    );
    // Never 100 % while a byte is still to come.
    expect(localModelText({ ...qwen, status: 'downloading', progress: 0.9996 })).toBe(
      'The local model is downloading: 99 % — debates use the offline speaker until it is ready',
    );
    expect(localModelText({ ...qwen, status: 'downloading', progress: 0 })).toBe(
      'The local model is downloading: 0 % — debates use the offline speaker until it is ready',
    );
    expect(localModelText({ ...qwen, status: 'downloading' })).toBe(
      'The local model is downloading — debates use the offline speaker until it is ready',
    );
  });

  it('says it is loading', () => {
    expect(localModelText({ ...qwen, status: 'loading' })).toBe(
      'The local model is loading — debates use the offline speaker until it is ready',
    );
  });

  it('says nothing once ready or failed, nor without a local model', () => {
    expect(localModelText({ ...qwen, status: 'ready' })).toBeNull();
    expect(localModelText({ ...qwen, status: 'failed' })).toBeNull();
    expect(localModelText(null)).toBeNull();
    expect(localModelText(undefined)).toBeNull();
  });
});

describe(catalogPollingInterval.name, () => {
  const qwen = { name: 'Qwen2.5 1.5B Instruct', progress: null };

  it('asks again while the local model downloads or loads, and never otherwise', () => {
    expect(catalogPollingInterval({ ...qwen, status: 'downloading', progress: 0.5 })).toBe(
      LOCAL_MODEL_POLL_MS,
    );
    expect(catalogPollingInterval({ ...qwen, status: 'loading' })).toBe(LOCAL_MODEL_POLL_MS);
    expect(catalogPollingInterval({ ...qwen, status: 'ready' })).toBe(0);
    expect(catalogPollingInterval({ ...qwen, status: 'failed' })).toBe(0);
    expect(catalogPollingInterval(null)).toBe(0);
    // Before the catalogue has arrived.
    expect(catalogPollingInterval(undefined)).toBe(0);
  });
});

describe(modelOptionText.name, () => {
  it('is the label, and says when the model has been failing', () => {
    expect(modelOptionText({ label: 'GPT-4o', status: 'ok' })).toBe('GPT-4o');
    expect(modelOptionText({ label: 'GPT-4o', status: 'degraded' })).toBe(
      'GPT-4o (failing lately)',
    );
  });
});

describe(whoWrites.name, () => {
  it('says that no AI model is called when the offline speaker writes both speakers', () => {
    expect(whoWrites(offline, offline, false)).toEqual([
      'Both speakers are written by the offline speaker: no AI model is called for this debate.',
    ]);
    expect(whoWrites(offline, offline, true)).toEqual([
      'Both speakers and the moderator are written by the offline speaker: no AI model is called for this debate.',
    ]);
  });

  it('names each speaker’s writer when they differ', () => {
    expect(whoWrites(gpt4o, offline, false)).toEqual([
      'First Speaker is written by GPT-4o.',
      'Second Speaker is written by the offline speaker: no AI model is called for it.',
    ]);
    expect(whoWrites(offline, llama, true)).toEqual([
      'First Speaker and the moderator are written by the offline speaker: no AI model is called for them.',
      'Second Speaker is written by Llama 3.1 (Ollama).',
    ]);
  });

  it('claims no offline speaker when models write both', () => {
    expect(whoWrites(gpt4o, gpt4o, false)).toEqual(['Both speakers are written by GPT-4o.']);
    expect(whoWrites(gpt4o, llama, false).join(' ')).not.toMatch(/offline/);
  });
});
