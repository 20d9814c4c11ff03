import { BSON, type Document } from 'bson';

/** Opcodes of the MongoDB wire protocol this server speaks. */
const OP_REPLY = 1;
const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
const OP_MSG = 2013;

export const HEADER_SIZE = 16;
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;

const CHECKSUM_PRESENT = 1 << 0;
export const MORE_TO_COME = 1 << 1;

export interface MessageHeader {
  readonly length: number;
  readonly requestId: number;
  readonly responseTo: number;
  readonly opCode: number;
}

/** An OP_MSG: its body (kind 0) with every kind-1 document sequence folded in by identifier. */
interface OpMsg {
  readonly kind: 'msg';
  readonly header: MessageHeader;
  readonly flags: number;
  readonly body: Document;
}

/** A legacy OP_QUERY, as drivers still send the first handshake of a connection. */
interface OpQuery {
  readonly kind: 'query';
  readonly header: MessageHeader;
  readonly collection: string;
  readonly query: Document;
}

export type Request = OpMsg | OpQuery;

class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Deserialises as the server keeps values: numbers as JS numbers when they fit, BSON types otherwise. */
export function readDocument(buffer: Uint8Array): Document {
  return BSON.deserialize(buffer, {
    promoteLongs: true,
    promoteValues: true,
    promoteBuffers: false,
  });
}

export function readHeader(buffer: Buffer): MessageHeader {
  return {
    length: buffer.readInt32LE(0),
    requestId: buffer.readInt32LE(4),
    responseTo: buffer.readInt32LE(8),
    opCode: buffer.readInt32LE(12),
  };
}

function readCString(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  if (end < 0) throw new ProtocolError('unterminated string');
  return [buffer.toString('utf8', offset, end), end + 1];
}

function documentAt(buffer: Buffer, offset: number, limit: number): [Document, number] {
  if (offset + 4 > limit) throw new ProtocolError('truncated document');
  const size = buffer.readInt32LE(offset);
  if (size < 5 || offset + size > limit) throw new ProtocolError('invalid document length');
  return [readDocument(buffer.subarray(offset, offset + size)), offset + size];
}

/** Parses one whole message (header included). */
export function parseMessage(message: Buffer): Request {
  const header = readHeader(message);
  if (header.opCode === OP_MSG) {
    const flags = message.readUInt32LE(HEADER_SIZE);
    const end = flags & CHECKSUM_PRESENT ? message.length - 4 : message.length;
    let offset = HEADER_SIZE + 4;
    let body: Document | undefined;
    const sequences: Record<string, Document[]> = {};
    while (offset < end) {
      const kind = message.readUInt8(offset);
      offset += 1;
      if (kind === 0) {
        [body, offset] = documentAt(message, offset, end);
      } else if (kind === 1) {
        const size = message.readInt32LE(offset);
        const sectionEnd = offset + size;
        if (size < 5 || sectionEnd > end) throw new ProtocolError('invalid document sequence');
        let identifier: string;
        [identifier, offset] = readCString(message, offset + 4);
        const documents: Document[] = [];
        while (offset < sectionEnd) {
          let document: Document;
          [document, offset] = documentAt(message, offset, sectionEnd);
          documents.push(document);
        }
        sequences[identifier] = [...(sequences[identifier] ?? []), ...documents];
      } else {
        throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new ProtocolError('OP_MSG without a body section');
    return { kind: 'msg', header, flags, body: { ...body, ...sequences } };
  }
  if (header.opCode === OP_QUERY) {
    const [collection, afterName] = readCString(message, HEADER_SIZE + 4);
    const [query] = documentAt(message, afterName + 8, message.length);
    return { kind: 'query', header, collection, query };
  }
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(HEADER_SIZE);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

/** An OP_MSG reply with one kind-0 section. */
export function composeMsg(requestId: number, responseTo: number, body: Document): Buffer {
  const bson = BSON.serialize(body);
  const length = HEADER_SIZE + 4 + 1 + bson.length;
  const flagsAndKind = Buffer.alloc(5); // flags 0, section kind 0
  return Buffer.concat([header(length, requestId, responseTo, OP_MSG), flagsAndKind, bson]);
}

/** An OP_REPLY with one document, the answer to a legacy OP_QUERY command. */
export function composeReply(requestId: number, responseTo: number, document: Document): Buffer {
  const bson = BSON.serialize(document);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  fields.writeBigInt64LE(0n, 4); // cursorID
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  const length = HEADER_SIZE + fields.length + bson.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_REPLY), fields, bson]);
}
