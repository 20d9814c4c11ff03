import { createHash } from 'node:crypto';
import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';

export class StoreLockedError extends Error {
  constructor(dbPath: string, pid: number | null) {
    super(
      `${dbPath} is in use by another server${pid === null ? '' : ` (process ${pid})`}; stop it first`,
    );
    this.name = 'StoreLockedError';
  }
}

/**
 * Where the server that has `dbPath` answers: on Linux an abstract Unix socket named after the
 * directory (no file: the kernel drops it with the process, however it dies), elsewhere a
 * socket file in the directory (a dead server's file is found unanswered and replaced).
 */
function lockAddress(dbPath: string): string {
  const directory = realpathSync(dbPath);
  if (process.platform === 'linux') {
    const name = createHash('sha256').update(directory).digest('hex').slice(0, 40);
    return `\0embedded-mongo-${name}`;
  }
  return join(directory, 'mongod.sock');
}

/** The process id the server at `address` answers with; null when nobody answers there. */
function holder(address: string): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = createConnection(address);
    let answer = '';
    const done = (pid: number | null) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(2_000, () => done(null));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => {
      const pid = Number(answer.trim());
      done(Number.isInteger(pid) && pid > 0 ? pid : null);
    });
    socket.on('error', () => done(null));
  });
}

/**
 * Takes `dbPath` for this process, as MongoDB's lock does: the server listens on the lock's
 * socket for as long as it runs, and the operating system closes it when the process ends, a
 * SIGKILL included. So a restart right after a crash always starts, whatever process id it gets
 * (a container's server has the same one at every start), and a second live server on the same
 * directory, this process included, is refused. `mongod.lock` names the holder, for people.
 * Resolves to the function that lets go.
 */
export async function lockStore(dbPath: string): Promise<() => Promise<void>> {
  const address = lockAddress(dbPath);
  const note = join(dbPath, 'mongod.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const server = createServer((socket) => socket.end(String(process.pid)));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(address, () => resolve());
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const pid = await holder(address);
      // An abstract address in use is a live holder, answering or not; a file nobody answers
      // on was left by a server that died.
      if (pid !== null || address.startsWith('\0')) throw new StoreLockedError(dbPath, pid);
      rmSync(address, { force: true });
      continue;
    }
    // The lock must not keep the process alive on its own.
    server.unref();
    writeFileSync(note, String(process.pid));
    return async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(note, { force: true });
    };
  }
  throw new StoreLockedError(dbPath, null);
}
