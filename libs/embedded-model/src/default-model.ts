import type { ModelDownload } from './download.js';

/**
 * The model the local server fetches when none is given: Qwen2.5 1.5B Instruct, quantised to
 * Q4_K_M. Chosen for the quality of its arguments per gigabyte on a laptop's CPU: 1.1 GB (the 3B
 * Q4_K_M is 2.1 GB, and about twice as slow per token on a CPU), Apache-2.0 (Qwen2.5 3B is under
 * Qwen's research licence, which does not allow commercial use), a 32k-token context (the three
 * rounds of a debate fit), and it keeps to a JSON schema reliably, which structured turns need.
 *
 * The URL names a commit of the Hugging Face repository rather than `main`, so the checksum below
 * names one file for good: a re-upload upstream cannot change what is fetched.
 */
export const DEFAULT_LOCAL_MODEL: ModelDownload = {
  url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf',
  sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
  bytes: 1_117_320_736,
  file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
  name: 'Qwen2.5 1.5B Instruct',
  license: 'Apache-2.0',
};

const SHA256 = /^[0-9a-f]{64}$/i;

/**
 * The model to fetch from an operator's own address (a mirror or an artifact store) with its
 * SHA-256: the default model when the digest is the default's (its name, file and size stand;
 * only where it comes from changes), else another GGUF, kept in the cache under the URL's last
 * segment (`.gguf` added when it lacks it) and named by its own metadata once loaded. Its size is
 * then what the server says (Content-Length). Throws when the URL is not http(s) or the digest is
 * not 64 hex digits.
 */
export function mirroredModel(url: string, sha256: string): ModelDownload {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${url} is not an http(s) URL`);
  }
  if (!SHA256.test(sha256)) throw new Error(`${sha256} is not a SHA-256 (64 hex digits)`);
  const digest = sha256.toLowerCase();
  if (digest === DEFAULT_LOCAL_MODEL.sha256) return { ...DEFAULT_LOCAL_MODEL, url };
  let last = '';
  try {
    last = decodeURIComponent(parsed.pathname.split('/').pop() ?? '');
  } catch {
    // A malformed escape: the digest names it below.
  }
  const stem = last
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .replace(/\.gguf$/i, '');
  const file = `${stem.slice(0, 100) || `model-${digest.slice(0, 12)}`}.gguf`;
  return {
    url,
    sha256: digest,
    bytes: null,
    file,
    name: file.replace(/\.gguf$/i, ''),
    license: 'NOASSERTION',
    nameFromFile: true,
  };
}
