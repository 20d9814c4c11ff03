import { BSON, type Document, Long } from 'bson';
import type { Engine } from '../store/engine.js';

const BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;

interface Cursor {
  readonly namespace: string;
  documents: Document[];
}

/** What commands share: the store, the open cursors, and this connection's id. */
export class CommandContext {
  private nextCursorId = 1;
  readonly cursors = new Map<number, Cursor>();

  constructor(readonly engine: Engine) {}

  openCursor(namespace: string, documents: Document[], batchSize: number | undefined): Document {
    const [firstBatch, rest] = takeBatch(documents, batchSize);
    let id = 0;
    if (rest.length > 0) {
      id = this.nextCursorId++;
      this.cursors.set(id, { namespace, documents: rest });
    }
    return { id: Long.fromNumber(id), ns: namespace, firstBatch };
  }
}

/** The next batch of a cursor's documents (at most `batchSize`, and under 16 MiB), and the rest. */
export function takeBatch(
  documents: Document[],
  batchSize: number | undefined,
): [Document[], Document[]] {
  const limit = batchSize && batchSize > 0 ? batchSize : documents.length;
  let bytes = 0;
  let count = 0;
  while (count < documents.length && count < limit) {
    bytes += BSON.calculateObjectSize(documents[count] as Document);
    if (bytes > BATCH_BYTES && count > 0) break;
    count += 1;
  }
  return [documents.slice(0, count), documents.slice(count)];
}

/** A command's implementation: its body, the database it names, and the connection's context. */
export type Handler = (
  body: Document,
  db: string,
  context: CommandContext,
) => Promise<Document> | Document;
