import { subjects } from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import { startNatsServer } from '@debate/nest/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { graphql } from './graphql-client.js';

const workspace = fileURLToPath(new URL('../../../', import.meta.url));

interface LogLine {
  readonly service?: string;
  readonly msg?: string;
  readonly trace_id?: string;
}

/** A built deployable as its own process, its JSON log lines collected. */
function startDeployable(entry: string, env: Record<string, string>) {
  const lines: LogLine[] = [];
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: workspace,
    env: { ...process.env, LOG_LEVEL: 'debug', OPS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // not a log line
      }
    }
  });
  return { child, lines };
}

// The distributed form, each deployable a process: one request's trace crosses NATS.
describe('tracing across the gateway and a service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tracing-test-'));
  let stop: () => Promise<void>;
  let gateway: ReturnType<typeof startDeployable>;
  let community: ReturnType<typeof startDeployable>;
  let url = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const nats = await startNatsServer();
    const store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    env = { NATS_URL: nats.url, MONGO_URL: store.uri };
    community = startDeployable('services/community/dist/main.js', env);
    gateway = startDeployable('gateway/dist/main.js', { ...env, PORT: '0', HOST: '127.0.0.1' });
    stop = async () => {
      for (const { child } of [gateway, community]) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await nats.stop();
      await store.stop();
    };
    for (let attempt = 0; attempt < 200 && !url; attempt += 1) {
      const started = gateway.lines.find((line) =>
        line.msg?.startsWith('The gateway is listening'),
      );
      url = /at (http:\/\/[^,\s]+)/.exec(started?.msg ?? '')?.[1] ?? '';
      if (!url) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Ready once the community service answers through the gateway.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const result = await graphql(url, '{ communityDebates { next } }');
      if (!result.errors) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    await stop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes one request's trace id in the gateway's log and in the service's", async () => {
    const traceId = randomBytes(16).toString('hex');
    const result = await graphql(url, '{ communityDebates(sort: MOST_POPULAR) { next } }', {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(result.errors).toBeUndefined();
    const traced = async (lines: LogLine[], text: string) => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const found = lines.find((line) => line.trace_id === traceId && line.msg?.includes(text));
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    };
    expect(await traced(gateway.lines, 'communityDebates ok')).toMatchObject({
      service: 'gateway',
    });
    expect(await traced(community.lines, `${subjects.community.debate.rank} ok`)).toMatchObject({
      service: 'community',
    });
    // Another request is another trace.
    await graphql(url, '{ communityDebates { next } }');
    const other = community.lines.filter(
      (line) =>
        line.msg?.includes(`${subjects.community.debate.rank} ok`) && line.trace_id !== traceId,
    );
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((line) => /^[0-9a-f]{32}$/.test(line.trace_id ?? ''))).toBe(true);
  });

  it('traces nothing in a process started with OTEL_SDK_DISABLED=true', async () => {
    // A second community instance (the queue group shares the requests between the two).
    const untraced = startDeployable('services/community/dist/main.js', {
      ...env,
      OTEL_SDK_DISABLED: 'true',
    });
    try {
      const answered = () =>
        untraced.lines.filter((line) => line.msg?.includes(`${subjects.community.debate.rank} ok`));
      for (let attempt = 0; attempt < 200 && answered().length < 3; attempt += 1) {
        const traceId = randomBytes(16).toString('hex');
        await graphql(url, '{ communityDebates { next } }', {
          headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
        });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(answered().length).toBeGreaterThanOrEqual(3);
      expect(answered().filter((line) => line.trace_id !== undefined)).toEqual([]);
    } finally {
      const exited = new Promise((resolve) => untraced.child.once('exit', resolve));
      untraced.child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});
