import { subjects } from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import { startNatsServer } from '@debate/nest/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningUrl } from '@debate/nest';
import { graphql } from './graphql-client.js';

const workspace = fileURLToPath(new URL('../../', import.meta.url));

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
  it("exports a caller's sampled traces over OTLP, and none the caller did not sample", async () => {
    // An OTLP/HTTP collector: the trace ids of every span exported to it.
    const exported = new Set<string>();
    const collector = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        for (const [, traceId] of body.matchAll(/"traceId":"([0-9a-f]{32})"/g)) {
          exported.add(traceId ?? '');
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = listeningUrl(collector, '127.0.0.1');
    // A second community instance that exports (the gateway does not: it only passes the
    // caller's decision on).
    const exporting = startDeployable('services/community/dist/main.js', {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const answered = () =>
      exporting.lines.filter((line) => line.msg?.includes(`${subjects.community.debate.rank} ok`));
    const sampled = new Set<string>();
    const unsampled = new Set<string>();
    // NATS hands each request to either instance at random, and a quarter of the requests are
    // sampled: go on until the exporting instance has answered sampled and unsampled ones.
    const answeredBy = (ids: Set<string>) =>
      answered().filter((line) => ids.has(line.trace_id ?? '')).length;
    try {
      for (
        let attempt = 0;
        attempt < 300 && (answeredBy(sampled) < 3 || answered().length < 9);
        attempt += 1
      ) {
        const traceId = randomBytes(16).toString('hex');
        const flags = attempt % 2 === 0 ? '01' : '00';
        (flags === '01' ? sampled : unsampled).add(traceId);
        await graphql(url, '{ communityDebates { next } }', {
          headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` },
        });
        // and one with no traceparent at all: the gateway starts that trace, unsampled
        await graphql(url, '{ communityDebates { next } }');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answeredIds = new Set(answered().map((line) => line.trace_id));
      const sampledThere = [...sampled].filter((id) => answeredIds.has(id));
      expect(sampledThere.length).toBeGreaterThan(0);
      for (let attempt = 0; attempt < 50; attempt += 1) {
        if (sampledThere.every((id) => exported.has(id))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(sampledThere.filter((id) => !exported.has(id))).toEqual([]);
      expect([...exported].filter((id) => !sampled.has(id))).toEqual([]);
    } finally {
      const exited = new Promise((resolve) => exporting.child.once('exit', resolve));
      exporting.child.kill('SIGTERM');
      await exited;
      collector.close();
    }
  }, 60_000);
});
