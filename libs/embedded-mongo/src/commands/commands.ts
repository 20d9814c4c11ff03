import type { Document } from 'bson';
import {
  collMod,
  create,
  createIndexes,
  drop,
  dropDatabase,
  dropIndexes,
  listCollections,
  listDatabases,
  listIndexes,
} from './admin.js';
import { aggregate } from './aggregate.js';
import type { CommandContext, Handler } from './context.js';
import { buildInfo, getParameter, hello, hostInfo } from './handshake.js';
import { count, distinct, explain, find, getMore, killCursors } from './reads.js';
import { refuseUnsupported } from './unsupported.js';
import { findAndModify, insert, remove, update } from './writes.js';
import { CommandError, evaluationError } from '../errors.js';

/** Every command the server answers, by the name a client sends (legacy spellings included). */
const handlers: Record<string, Handler> = {
  hello,
  ismaster: hello,
  isMaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  hostInfo,
  endSessions: () => ({ ok: 1 }),
  listDatabases,
  listCollections,
  create,
  collMod,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: remove,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
  count,
  distinct,
  explain,
};

/** Runs one command and answers as MongoDB would, errors included. */
export async function runCommand(body: Document, context: CommandContext): Promise<Document> {
  const [name] = Object.keys(body);
  const db = typeof body['$db'] === 'string' ? body['$db'] : 'admin';
  try {
    if (body['startTransaction'] === true || body['autocommit'] === false) {
      throw new CommandError(
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    const handler = name ? handlers[name] : undefined;
    if (!name || !handler) {
      throw new CommandError('CommandNotFound', `no such command: '${name ?? ''}'`);
    }
    refuseUnsupported(name, body, db, context.engine);
    return await handler(body, db, context);
  } catch (error) {
    if (error instanceof CommandError) return error.toDocument();
    const evaluated = evaluationError(error, 'BadValue');
    if (evaluated.codeName === 'Location17276') return evaluated.toDocument();
    return { ok: 0, errmsg: (error as Error).message, code: 1, codeName: 'InternalError' };
  }
}
