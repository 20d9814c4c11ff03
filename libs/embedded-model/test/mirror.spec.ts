import { describe, expect, it } from '@jest/globals';
import { DEFAULT_LOCAL_MODEL, mirroredModel } from '../src/default-model.js';

describe('a model fetched from a mirror', () => {
  it('is the default model from elsewhere when the digest is the default’s', () => {
    const url = 'https://artifacts.example.internal/any-name.bin';
    expect(mirroredModel(url, DEFAULT_LOCAL_MODEL.sha256.toUpperCase())).toEqual({
      ...DEFAULT_LOCAL_MODEL,
      url,
    });
  });

  it('is another GGUF, kept under the URL’s name and named by its file once loaded', () => {
    const sha256 = 'AB'.repeat(32);
    expect(mirroredModel('http://127.0.0.1:8080/models/tiny%20model.gguf?x=1', sha256)).toEqual({
      url: 'http://127.0.0.1:8080/models/tiny%20model.gguf?x=1',
      sha256: sha256.toLowerCase(),
      bytes: null,
      file: 'tiny_model.gguf',
      name: 'tiny_model',
      license: 'NOASSERTION',
      nameFromFile: true,
    });
    expect(mirroredModel('https://mirror/models/', sha256).file).toBe(
      `model-${'ab'.repeat(6)}.gguf`,
    );
    expect(mirroredModel('https://mirror/../..', sha256).file).toBe(`model-${'ab'.repeat(6)}.gguf`);
    expect(mirroredModel('https://mirror/weights', sha256).file).toBe('weights.gguf');
  });

  it('refuses what is not an http(s) URL or not a SHA-256', () => {
    expect(() => mirroredModel('ftp://mirror/model.gguf', 'ab'.repeat(32))).toThrow(/http\(s\)/);
    expect(() => mirroredModel('not a url', 'ab'.repeat(32))).toThrow(/not a URL/);
    expect(() => mirroredModel('https://mirror/model.gguf', 'ab')).toThrow(/SHA-256/);
  });
});
