import { start as startStore } from '@debate/embedded-mongo';
import type { TransportConfig } from '@debate/nest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type PlatformOptions,
  type RunningPlatform,
  startPlatform,
} from '../src/start-platform.js';

export interface TestPlatform {
  readonly platform: RunningPlatform;
  readonly mongoUrl: string;
  teardown(): Promise<void>;
}

/**
 * The platform as `npm start` runs it, on `transport`, with a fresh embedded store and data
 * directory (or the MongoDB of MONGO_URL).
 */
export async function startTestPlatform(
  transport: TransportConfig,
  extra: Partial<Pick<PlatformOptions, 'speakers' | 'testAccountEmail'>> = {},
): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  const store = process.env['MONGO_URL']
    ? undefined
    : await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
  const mongoUrl = store?.uri ?? process.env['MONGO_URL'] ?? '';
  try {
    const platform = await startPlatform({
      transport,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      mongoUrl,
      dataDir,
      ...extra,
    });
    return {
      platform,
      mongoUrl,
      teardown: async () => {
        await platform.stop();
        await store?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
