/** What a driver asks on connecting: the server's version, limits and role. */

import type { Document } from 'bson';
import type { Handler } from './context.js';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE, MAX_WRITE_BATCH_SIZE } from '../wire/protocol.js';

/** Version figures this server reports: those of the MongoDB release whose commands it follows. */
const SERVER_VERSION = '7.0.0';
const MAX_WIRE_VERSION = 21;

export const buildInfo: Handler = (): Document => ({
  version: SERVER_VERSION,
  versionArray: [7, 0, 0, 0],
  gitVersion: 'embedded',
  bits: 64,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  storageEngines: ['embedded-journal'],
  ok: 1,
});

export const hello: Handler = (): Document => ({
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  maxMessageSizeBytes: MAX_MESSAGE_SIZE,
  maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  minWireVersion: 0,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
  ok: 1,
});

export const getParameter: Handler = (body) => ({
  ...(body['featureCompatibilityVersion']
    ? { featureCompatibilityVersion: { version: '7.0' } }
    : {}),
  ok: 1,
});

export const hostInfo: Handler = () => ({
  system: { currentTime: new Date(), hostname: 'localhost', numCores: 1 },
  os: { type: process.platform },
  extra: {},
  ok: 1,
});
