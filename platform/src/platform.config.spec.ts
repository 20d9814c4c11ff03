import { loadConfig, startOperationsServer } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import { listenAddresses, listeningLine, platformEnvSchema } from './platform.config.js';

/** This machine's first address on a network (not loopback); none: the test cannot tell. */
function networkAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  if (!found) throw new Error('This machine has no network address to try');
  return found.address;
}

/** Whether something answers GET /health/live on `host`:`port`. */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    return (await fetch(`http://${host}:${port}/health/live`)).ok;
  } catch {
    return false;
  }
}

/** The operations port started where npm start puts it with `env`; what answers where. */
async function reachable(
  env: Record<string, string>,
): Promise<{ loopback: boolean; network: boolean }> {
  const addresses = listenAddresses(loadConfig('the platform', platformEnvSchema, env));
  const sut = await startOperationsServer({ port: 0, host: addresses.operations, checks: {} });
  try {
    const port = Number(new URL(sut.url).port);
    return {
      loopback: await answers('127.0.0.1', port),
      network: await answers(networkAddress(), port),
    };
  } finally {
    await sut.close();
  }
}

describe('where npm start listens', () => {
  it('on loopback only by default, the web port and the operations port alike, and says so', async () => {
    const addresses = listenAddresses(loadConfig('the platform', platformEnvSchema, {}));
    expect(addresses).toEqual({ web: '127.0.0.1', operations: '127.0.0.1' });
    expect(await reachable({})).toEqual({ loopback: true, network: false });
    expect(listeningLine(addresses)).toBe(
      'Listening on this machine only (127.0.0.1): HOST=0.0.0.0 opens it to the network',
    );
  });

  it('on the network when HOST says so, the operations port following unless OPS_HOST says otherwise', async () => {
    expect(await reachable({ HOST: '0.0.0.0' })).toEqual({ loopback: true, network: true });
    expect(await reachable({ HOST: '0.0.0.0', OPS_HOST: '127.0.0.1' })).toEqual({
      loopback: true,
      network: false,
    });
    expect(listeningLine({ web: '0.0.0.0', operations: '0.0.0.0' })).toMatch(/open to the network/);
  });
});
