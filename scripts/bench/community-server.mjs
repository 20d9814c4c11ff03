// The platform of the community benchmark, in a process of its own: an embedded store, a
// nats-server (JetStream on), and the five services and the gateway over real NATS. Prints
// `ready <gateway url> <nats url>` when it answers; stops everything on SIGTERM.
import 'reflect-metadata';
import { start as startStore } from '@debate/embedded-mongo';
import { natsTransport } from '@debate/nest';
import { startNatsServer } from '@debate/nest/testing';
import { startPlatform } from '@debate/platform';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'bench-community-'));
const store = process.env.MONGO_URL
  ? undefined
  : await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
const nats = await startNatsServer();
const platform = await startPlatform({
  transport: natsTransport(nats.url),
  port: 0,
  host: '127.0.0.1',
  logLevel: 'warn',
  mongoUrl: store?.uri ?? process.env.MONGO_URL ?? '',
  dataDir,
});
process.stdout.write(`ready ${platform.url} ${nats.url}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await platform.stop();
  await nats.stop();
  await store?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
