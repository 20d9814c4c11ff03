import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadModel, DownloadError, type ModelDownload } from '../src/download.js';

/** A few megabytes of noise: enough for many chunks and progress steps, quick to hash. */
const content = randomBytes(4 * 1024 * 1024 + 123);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the next request gets, then the server goes back to serving the file with Range support. */
interface Next {
  /** Answer with this status and no file. */
  status?: number;
  /** Destroy the socket after this many bytes of the body. */
  cutAfter?: number;
}

/** A file server on loopback with Range support, recording the Range header of every request. */
class FileServer {
  readonly ranges: (string | undefined)[] = [];
  next: Next = {};
  /** Answer 200 with the whole file to every Range request, as some servers do. */
  ignoreRange = false;
  private readonly server: Server = createServer((request, response) => {
    this.ranges.push(request.headers.range);
    const next = this.next;
    this.next = {};
    if (next.status !== undefined) {
      response.writeHead(next.status).end('not here');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    if (!range || this.ignoreRange) {
      response.writeHead(200, { 'content-length': content.length });
      send(response, content, next.cutAfter);
      return;
    }
    const start = Number(range[1]);
    if (start >= content.length) {
      response.writeHead(416, { 'content-range': `bytes */${content.length}` }).end();
      return;
    }
    response.writeHead(206, {
      'content-length': content.length - start,
      'content-range': `bytes ${start}-${content.length - 1}/${content.length}`,
    });
    send(response, content.subarray(start), next.cutAfter);
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/model.gguf`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function send(response: ServerResponse, body: Buffer, cutAfter: number | undefined): void {
  if (cutAfter === undefined) {
    response.end(body);
    return;
  }
  // Ended, not destroyed: a socket destroyed while the client has not yet read everything may be
  // reset, and a reset drops what the client's kernel still held (it got less than was sent
  // under load). Ended, the bytes arrive, then the end of the connection, short of the length.
  response.write(body.subarray(0, cutAfter), () => response.socket?.end());
}

/** A loopback port nothing listens on (the system's pick, closed again). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('downloadModel', () => {
  const server = new FileServer();
  let url = '';
  let cacheDir = '';
  let model: ModelDownload;

  beforeAll(async () => {
    url = await server.listen();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    cacheDir = join(mkdtempSync(join(tmpdir(), 'embedded-model-download-')), 'models');
    model = {
      url,
      sha256: sha256(content),
      bytes: content.length,
      file: 'model.gguf',
      name: 'Test model',
      license: 'Apache-2.0',
    };
    server.ranges.length = 0;
    server.next = {};
    server.ignoreRange = false;
  });
  afterEach(() => rmSync(join(cacheDir, '..'), { recursive: true, force: true }));

  const final = () => join(cacheDir, 'model.gguf');
  const part = () => join(cacheDir, 'model.gguf.part');
  /** A part left by an earlier run. */
  const leavePart = (bytes: Buffer) => {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(part(), bytes);
  };

  it('fetches the file into the cache directory, reporting progress up to the total', async () => {
    const reports: [number, number | null][] = [];

    const sut = await downloadModel(model, {
      cacheDir,
      onProgress: (received, total) => reports.push([received, total]),
    });

    expect(sut).toBe(final());
    expect(sha256(readFileSync(sut))).toBe(model.sha256);
    expect(existsSync(part())).toBe(false);
    expect(readFileSync(`${final()}.sha256`, 'utf8').trim()).toBe(model.sha256);
    expect(reports.at(-1)).toEqual([content.length, content.length]);
    const received = reports.map(([bytes]) => bytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    // At most every 1 % (or 500 ms, far longer than this transfer), plus the start and the end.
    expect(reports.length).toBeLessThanOrEqual(103);
    expect(reports.length).toBeGreaterThan(10);
  });

  it('keeps the part of a transfer cut short, and resumes it with a Range request', async () => {
    const cut = 1_500_000;
    server.next = { cutAfter: cut };

    const first = downloadModel(model, { cacheDir });

    await expect(first).rejects.toThrow(DownloadError);
    await expect(first).rejects.toThrow(/Test model/);
    // The part holds what was read before the cut was seen: every byte the server sent, or fewer,
    // since fetch drops the chunks still queued in its stream when the connection ends early
    // (seen under load). Whatever it holds is the file's first bytes, and the resume starts there.
    const kept = statSync(part()).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(cut);
    expect(readFileSync(part()).equals(content.subarray(0, kept))).toBe(true);
    expect(existsSync(final())).toBe(false);

    const sut = await downloadModel(model, { cacheDir });

    expect(server.ranges).toEqual([undefined, `bytes=${kept}-`]);
    expect(sha256(readFileSync(sut))).toBe(model.sha256);
    expect(existsSync(part())).toBe(false);
  });

  it('refuses a file with the wrong checksum, deleting it', async () => {
    const wrong = { ...model, sha256: sha256(Buffer.from('another file')) };

    const sut = downloadModel(wrong, { cacheDir });

    await expect(sut).rejects.toThrow(DownloadError);
    await expect(sut).rejects.toThrow(`expected ${wrong.sha256}, got ${model.sha256}`);
    expect(existsSync(part())).toBe(false);
    expect(existsSync(final())).toBe(false);
  });

  it('starts over when the server ignores the range and sends the whole file', async () => {
    server.ignoreRange = true;
    leavePart(Buffer.alloc(1000, 0xee));

    const sut = await downloadModel(model, { cacheDir });

    expect(server.ranges).toEqual(['bytes=1000-']);
    expect(sha256(readFileSync(sut))).toBe(model.sha256);
  });

  it('finishes a part that is already the whole file when the server answers 416', async () => {
    leavePart(content);

    const sut = await downloadModel(model, { cacheDir });

    expect(server.ranges).toEqual([`bytes=${content.length}-`]);
    expect(sha256(readFileSync(sut))).toBe(model.sha256);
  });

  it('says the status when the server refuses', async () => {
    server.next = { status: 404 };

    const sut = downloadModel(model, { cacheDir });

    await expect(sut).rejects.toThrow(DownloadError);
    await expect(sut).rejects.toThrow(/answered 404 Not Found/);
    expect(existsSync(final())).toBe(false);
  });

  it('names the network cause and keeps nothing it did not fetch', async () => {
    const unreachable = { ...model, url: `http://127.0.0.1:${await closedPort()}/model.gguf` };

    const sut = downloadModel(unreachable, { cacheDir });

    await expect(sut).rejects.toThrow(DownloadError);
    await expect(sut).rejects.toThrow(/connect ECONNREFUSED 127\.0\.0\.1/);
    expect(existsSync(part())).toBe(false);
  });

  it('keeps the part when aborted, and throws the abort', async () => {
    const controller = new AbortController();

    const sut = downloadModel(model, {
      cacheDir,
      signal: controller.signal,
      onProgress: (received) => {
        if (received > 0) controller.abort();
      },
    });

    await expect(sut).rejects.toMatchObject({ name: 'AbortError' });
    expect(statSync(part()).size).toBeGreaterThan(0);
    expect(statSync(part()).size).toBeLessThan(content.length);
    expect(existsSync(final())).toBe(false);
  });

  it('returns a file verified before without a request', async () => {
    await downloadModel(model, { cacheDir });
    server.ranges.length = 0;

    const sut = await downloadModel(model, { cacheDir });

    expect(sut).toBe(final());
    expect(server.ranges).toEqual([]);
  });
});
