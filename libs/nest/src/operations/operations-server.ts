import { createServer, type Server } from 'node:http';
import { listeningUrl } from '../http/listening-url.js';
import { currentDegradations } from './degradations.js';
import { processRegistry } from './metrics.js';

/** One dependency's readiness: true, or why not. */
export type ReadinessCheck = () => Promise<true | string>;

export interface OperationsServerOptions {
  readonly port: number;
  readonly host: string;
  /** What must answer before the deployable takes traffic (NATS, the store), by name. */
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
  /** How long one check may take before it counts as failed. */
  readonly checkTimeoutMs?: number;
}

export interface OperationsServer {
  readonly url: string;
  close(): Promise<void>;
}

async function withTimeout(check: ReadinessCheck, ms: number): Promise<true | string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      check(),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms);
      }),
    ]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operations port of a deployable, for probes and scrapers only (never exposed to
 * browsers): GET /health/live (the process answers), GET /health/ready (every dependency
 * answers, else 503 naming the ones that do not; 200 and `degraded` naming what works badly, see
 * reportDegradations) and GET /metrics (Prometheus text).
 */
export async function startOperationsServer(
  options: OperationsServerOptions,
): Promise<OperationsServer> {
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: string, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET') return send(405, JSON.stringify({ error: 'GET only' }));
    if (path === '/health/live') return send(200, JSON.stringify({ status: 'ok' }));
    if (path === '/health/ready') {
      void (async () => {
        const names = Object.keys(options.checks);
        const results = await Promise.all(
          names.map((name) => withTimeout(options.checks[name] as ReadinessCheck, timeoutMs)),
        );
        const checks = Object.fromEntries(
          names.map((name, i) => [name, results[i] === true ? 'ok' : results[i]]),
        );
        const ready = results.every((result) => result === true);
        if (!ready) return send(503, JSON.stringify({ status: 'unavailable', checks }));
        // Degraded is still ready: it takes traffic, and says what works badly.
        const degraded = currentDegradations();
        if (Object.keys(degraded).length === 0) {
          return send(200, JSON.stringify({ status: 'ok', checks }));
        }
        return send(200, JSON.stringify({ status: 'degraded', checks, degraded }));
      })();
      return undefined;
    }
    if (path === '/metrics') {
      const registry = processRegistry();
      void registry.metrics().then(
        (text) => send(200, text, registry.contentType),
        (error: unknown) => send(500, JSON.stringify({ error: String(error) })),
      );
      return undefined;
    }
    return send(404, JSON.stringify({ error: 'Not Found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    url: listeningUrl(server, options.host),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
