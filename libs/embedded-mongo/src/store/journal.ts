import { BSON, type Document } from 'bson';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readDocument } from '../wire/protocol.js';

/** One change to the store, as it is journalled and replayed. Replaying one twice is harmless. */
export type JournalRecord =
  | { op: 'createCollection'; db: string; coll: string; options?: Document }
  | { op: 'collMod'; db: string; coll: string; options: Document }
  | { op: 'dropCollection'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string }
  | { op: 'createIndex'; db: string; coll: string; spec: Document }
  | { op: 'dropIndex'; db: string; coll: string; name: string }
  | { op: 'put'; db: string; coll: string; doc: Document }
  | { op: 'delete'; db: string; coll: string; id: unknown };

const FRAME_HEADER = 8; // u32 length of the BSON, u32 CRC-32 of the BSON

function frame(record: JournalRecord): Buffer {
  const bson = BSON.serialize(record as Document);
  const head = Buffer.alloc(FRAME_HEADER);
  head.writeUInt32LE(bson.length, 0);
  head.writeUInt32LE(crc32(bson), 4);
  return Buffer.concat([head, bson]);
}

/**
 * Reads every intact record of the journal. A torn or corrupt tail (a crash mid-append) is cut
 * off, so the store always opens with every write that was acknowledged.
 */
function readJournal(path: string): JournalRecord[] {
  if (!existsSync(path)) return [];
  const data = readFileSync(path);
  const records: JournalRecord[] = [];
  let offset = 0;
  while (offset + FRAME_HEADER <= data.length) {
    const length = data.readUInt32LE(offset);
    const checksum = data.readUInt32LE(offset + 4);
    const start = offset + FRAME_HEADER;
    if (length < 5 || start + length > data.length) break;
    const bson = data.subarray(start, start + length);
    if (crc32(bson) !== checksum) break;
    records.push(readDocument(bson) as JournalRecord);
    offset = start + length;
  }
  if (offset < data.length) truncateSync(path, offset);
  return records;
}

interface Pending {
  readonly data: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * The append-only journal. `append` resolves once the records are on disk (fdatasync); records
 * that arrive while a sync is running are written and synced together (group commit).
 */
export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  private compacting = false;
  private size: number;

  private constructor(
    private readonly path: string,
    private handle: FileHandle,
  ) {
    this.size = statSync(path).size;
  }

  static async open(dbPath: string): Promise<{ journal: Journal; records: JournalRecord[] }> {
    mkdirSync(dbPath, { recursive: true });
    const path = join(dbPath, 'journal.bin');
    const compacted = `${path}.compact`;
    // A compaction that did not finish renaming left the old journal whole: drop its copy.
    if (existsSync(compacted)) rmSync(compacted);
    const records = readJournal(path);
    const handle = await open(path, 'a');
    return { journal: new Journal(path, handle), records };
  }

  get bytes(): number {
    return this.size;
  }

  append(records: readonly JournalRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('the journal is closed'));
    const data = Buffer.concat(records.map(frame));
    return new Promise((resolve, reject) => {
      this.pending.push({ data, resolve, reject });
      if (!this.compacting) this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const data = Buffer.concat(batch.map((entry) => entry.data));
        await this.handle.write(data);
        await this.handle.datasync();
        this.size += data.length;
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      }
    }
    this.flushing = undefined;
  }

  /**
   * Replaces the journal with `records` (the live state), atomically: written to a new file,
   * synced, then renamed over the old one. Waits for appends in flight first.
   */
  async compact(records: readonly JournalRecord[]): Promise<void> {
    if (this.compacting || this.closed) return;
    // Appends that arrive meanwhile wait, and go to the new file. They may repeat what the
    // snapshot already holds; replaying a record twice is harmless.
    this.compacting = true;
    try {
      while (this.flushing) await this.flushing;
      const next = `${this.path}.compact`;
      const data = Buffer.concat(records.map(frame));
      writeFileSync(next, data);
      const fd = openSync(next, 'r+');
      fsyncSync(fd);
      closeSync(fd);
      await this.handle.close();
      renameSync(next, this.path);
      const directory = openSync(dirname(this.path), 'r');
      fsyncSync(directory);
      closeSync(directory);
      this.handle = await open(this.path, 'a');
      this.size = data.length;
    } finally {
      this.compacting = false;
      if (this.pending.length > 0) this.flushing ??= this.flush();
    }
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.closed = true;
    await this.handle.close();
  }
}
