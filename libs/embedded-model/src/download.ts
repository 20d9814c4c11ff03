import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A model file to fetch once and keep: where from, what it must hash to, and what it is. */
export interface ModelDownload {
  readonly url: string;
  /** The SHA-256 of the whole file, in hex: the only proof that the bytes are the ones meant. */
  readonly sha256: string;
  /** Its length in bytes, when known: a wrong length is refused before the digest is. */
  readonly bytes: number | null;
  /** Its name in the cache directory. */
  readonly file: string;
  /** Its name for people, e.g. "Qwen2.5 1.5B Instruct". */
  readonly name: string;
  /** Its licence (SPDX), said wherever the model is offered. */
  readonly license: string;
  /**
   * The name is the file's own (GGUF `general.name`) once it is loaded, `name` only till then:
   * a file this code does not know (an operator's mirror of another model).
   */
  readonly nameFromFile?: boolean;
}

export interface DownloadOptions {
  /** Created when missing; holds the file, its `.part` while fetching and its `.sha256` marker. */
  readonly cacheDir: string;
  /** Stops the transfer, keeping the part for the next call to resume; throws its reason. */
  readonly signal?: AbortSignal;
  /** Called at the start, then after each 1 % or 500 ms (whichever comes first), and at the end. */
  readonly onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  /** Node's fetch unless given (tests). */
  readonly fetch?: typeof fetch;
}

/**
 * Why a model could not be had, said for people: the status, the expected and actual digests, or
 * the network's cause.
 */
export class DownloadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DownloadError';
  }
}

/** How often progress is reported: a 1 GB file over a slow line still shows it moving. */
const PROGRESS_FRACTION = 0.01;
const PROGRESS_INTERVAL_MS = 500;

interface Paths {
  /** The verified file; it only ever appears by a rename, so it is never half written. */
  readonly final: string;
  /** The bytes fetched so far, kept across failures and restarts so a transfer resumes. */
  readonly part: string;
  /** The digest the final file was verified to have, so a start does not re-hash a gigabyte. */
  readonly marker: string;
}

/**
 * The path of `download.file` in `options.cacheDir`, fetched and verified first when it is not
 * there yet. A transfer cut short (network, abort) leaves its `.part`, and the next call resumes it
 * with a Range request; a file whose digest is wrong is deleted and refused.
 */
export async function downloadModel(
  download: ModelDownload,
  options: DownloadOptions,
): Promise<string> {
  options.signal?.throwIfAborted();
  await mkdir(options.cacheDir, { recursive: true });
  const final = join(options.cacheDir, download.file);
  const paths: Paths = { final, part: `${final}.part`, marker: `${final}.sha256` };
  const expected = download.sha256.toLowerCase();

  if (await verifiedBefore(paths, download, expected)) return final;
  if ((await sizeOf(final)) !== null) {
    // There but never verified here (copied in by hand, or a crash between the rename and the
    // marker): hash it once rather than fetch a gigabyte again.
    const { digest, length } = await hashFile(final);
    if (digest === expected && (download.bytes === null || length === download.bytes)) {
      await writeFile(paths.marker, `${digest}\n`);
      return final;
    }
    await rm(final, { force: true });
  }

  // A second pass only when the server's answer showed the part to be useless: a 416 to a part
  // that is not the file, or a range other than the one asked for.
  for (let pass = 0; pass < 2; pass++) {
    const outcome = await transfer(download, paths, options, expected);
    if (outcome === 'complete') {
      await finish(paths, expected);
      return final;
    }
  }
  throw new DownloadError(
    `Could not download ${download.name} from ${download.url}: the server's answers to a fresh request did not add up to the file`,
  );
}

async function verifiedBefore(
  paths: Paths,
  download: ModelDownload,
  expected: string,
): Promise<boolean> {
  const size = await sizeOf(paths.final);
  if (size === null || (download.bytes !== null && size !== download.bytes)) return false;
  try {
    return (await readFile(paths.marker, 'utf8')).trim() === expected;
  } catch {
    return false;
  }
}

/**
 * One request: the whole file, or the rest of the part. 'restart' when the part has been found
 * useless and removed, so the next request starts from the first byte.
 */
async function transfer(
  download: ModelDownload,
  paths: Paths,
  options: DownloadOptions,
  expected: string,
): Promise<'complete' | 'restart'> {
  const fetchImpl = options.fetch ?? fetch;
  const offset = (await sizeOf(paths.part)) ?? 0;
  let response: Response;
  try {
    response = await fetchImpl(download.url, {
      headers: offset > 0 ? { Range: `bytes=${offset}-` } : {},
      signal: options.signal ?? null,
      redirect: 'follow',
    });
  } catch (error) {
    throw failure(download, error, options.signal, offset);
  }

  if (response.status === 416 && offset > 0) {
    // Nothing past the part: either it is the whole file already (a crash before the rename) or
    // it is longer than the file, i.e. not this file's bytes.
    await response.body?.cancel();
    const { digest, length } = await hashFile(paths.part);
    if (digest === expected && (download.bytes === null || length === download.bytes)) {
      options.onProgress?.(length, length);
      return 'complete';
    }
    await rm(paths.part, { force: true });
    return 'restart';
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DownloadError(
      `Could not download ${download.name}: ${download.url} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    );
  }

  let start: number;
  let offered: number | null;
  if (response.status === 206) {
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== offset) {
      // A range we did not ask for: appending it would corrupt the part.
      await response.body?.cancel();
      await rm(paths.part, { force: true });
      return 'restart';
    }
    start = offset;
    offered = range[2] === '*' ? null : Number(range[2]);
  } else {
    // 200 to a Range request: the server sends the whole file, so the part is rewritten.
    start = 0;
    const length = response.headers.get('content-length');
    offered = length === null ? null : Number(length);
  }
  if (download.bytes !== null && offered !== null && offered !== download.bytes) {
    await response.body?.cancel();
    throw new DownloadError(
      `Could not download ${download.name}: ${download.url} offers ${offered} bytes, expected ${download.bytes} (has the file changed?)`,
    );
  }
  const total = download.bytes ?? offered;
  const body = response.body;
  if (!body) throw new DownloadError(`Could not download ${download.name}: the answer had no body`);

  const hash = createHash('sha256');
  if (start > 0) await hashInto(hash, paths.part);
  const progress = progressReporter(options.onProgress, total);
  let received = start;
  progress(received, false);
  // Each chunk is written before the next is read, so the part always holds exactly the bytes
  // received: a transfer cut anywhere resumes at the right offset. Streamed, never held whole.
  const part = await open(paths.part, start > 0 ? 'a' : 'w');
  try {
    for await (const chunk of body) {
      received += chunk.byteLength;
      if (total !== null && received > total) {
        throw new DownloadError(
          `Could not download ${download.name}: ${download.url} sent more than the ${total} bytes expected`,
        );
      }
      hash.update(chunk);
      await part.write(chunk);
      progress(received, false);
    }
  } catch (error) {
    await part.close();
    if (error instanceof DownloadError) {
      await rm(paths.part, { force: true });
      throw error;
    }
    throw failure(download, error, options.signal, (await sizeOf(paths.part)) ?? 0);
  }
  await part.close();
  progress(received, true);

  if (total !== null && received < total) {
    // The server closed the answer early but cleanly: what came is a prefix, worth resuming.
    throw new DownloadError(
      `Could not download ${download.name}: the transfer ended at ${received} of ${total} bytes; the next start resumes it`,
    );
  }
  const digest = hash.digest('hex');
  if (digest !== expected) {
    await rm(paths.part, { force: true });
    throw new DownloadError(
      `${download.name} from ${download.url} has the wrong SHA-256: expected ${expected}, got ${digest}; the download was deleted`,
    );
  }
  return 'complete';
}

/** Makes the verified part the final file, on disk before its name, and marks it verified. */
async function finish(paths: Paths, digest: string): Promise<void> {
  // Flushed before the rename, so a power cut cannot leave the final name on unwritten blocks.
  const handle = await open(paths.part, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(paths.part, paths.final);
  await writeFile(paths.marker, `${digest}\n`);
}

/**
 * What a failed transfer throws: the abort's own reason when it was aborted (the caller asked for
 * it), else a DownloadError naming the innermost cause ("getaddrinfo ENOTFOUND huggingface.co"
 * rather than fetch's "fetch failed"). The part stays for the next call to resume.
 */
function failure(
  download: ModelDownload,
  error: unknown,
  signal: AbortSignal | undefined,
  received: number,
): unknown {
  if (signal?.aborted) return signal.reason;
  const kept = received > 0 ? ` (${received} bytes kept; the next start resumes)` : '';
  return new DownloadError(
    `Could not download ${download.name} from ${download.url}: ${rootCause(error)}${kept}`,
    { cause: error },
  );
}

/**
 * The message of the innermost cause. Duck-typed, not `instanceof Error`: fetch's errors may come
 * from another realm (Jest's sandbox). A failed connection to a host of several addresses is an
 * AggregateError with an empty message: its first error says it.
 */
function rootCause(error: unknown): string {
  let current = error;
  for (;;) {
    if (typeof current !== 'object' || current === null) return String(current);
    const { cause, message, errors, code } = current as {
      cause?: unknown;
      message?: unknown;
      errors?: unknown;
      code?: unknown;
    };
    if (cause !== undefined && cause !== null) current = cause;
    else if (Array.isArray(errors) && errors.length > 0 && !message) current = errors[0];
    else if (typeof message === 'string' && message) return message;
    else return typeof code === 'string' ? code : String(current);
  }
}

/** Calls `onProgress` at the start, then after each 1 % of `total` or 500 ms, and at the end. */
function progressReporter(
  onProgress: DownloadOptions['onProgress'],
  total: number | null,
): (received: number, last: boolean) => void {
  const step = total === null ? Infinity : Math.max(1, Math.floor(total * PROGRESS_FRACTION));
  let reportedBytes = -Infinity;
  let reportedAt = -Infinity;
  return (received, last) => {
    if (!onProgress) return;
    const now = performance.now();
    if (last || received - reportedBytes >= step || now - reportedAt >= PROGRESS_INTERVAL_MS) {
      reportedBytes = received;
      reportedAt = now;
      onProgress(received, total);
    }
  };
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function hashInto(hash: Hash, path: string): Promise<number> {
  let length = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    length += bytes.byteLength;
    hash.update(bytes);
  }
  return length;
}

async function hashFile(path: string): Promise<{ digest: string; length: number }> {
  const hash = createHash('sha256');
  const length = await hashInto(hash, path);
  return { digest: hash.digest('hex'), length };
}
