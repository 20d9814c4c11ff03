import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningNats, startNatsServer } from '../testing/nats-server.js';
import { natsConnectionOptions } from './nats.transport.js';

/** A certificate authority, and a certificate it signed for this machine, made with openssl. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-days',
    '1',
    '-subj',
    '/CN=test authority',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  );
  // nats.js names no server to TLS for an address given as an IP: Node then checks `localhost`.
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
    '-out',
    file('server.crt'),
  );
  return { ca: file('ca.crt'), cert: file('server.crt'), key: file('server.key') };
}

describe(natsConnectionOptions.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'nats-tls-'));
  let nats: RunningNats;
  let ca: string;

  beforeAll(async () => {
    const made = makeCertificates(dir);
    ca = made.ca;
    nats = await startNatsServer({
      config: `tls { cert_file: "${made.cert}", key_file: "${made.key}" }\n`,
    });
  });

  afterAll(async () => {
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const attempt = (tlsCaFile?: string) =>
    connect({
      ...natsConnectionOptions({ url: nats.url, ...(tlsCaFile ? { tlsCaFile } : {}) }, 'usage'),
      waitOnFirstConnect: false,
      maxReconnectAttempts: 0,
    });

  it('connects over TLS to a broker whose certificate the CA of NATS_TLS_CA_FILE signed', async () => {
    const nc = await attempt(ca);
    await expect(nc.flush()).resolves.toBeUndefined();
    await nc.close();
  });

  it('does not connect to it without that CA', async () => {
    await expect(attempt()).rejects.toThrow();
  });
});

describe('who connects to NATS', () => {
  const url = 'nats://127.0.0.1:4222';
  const users = { usage: { user: 'usage', password: 'secret' } };

  it('connects a deployable as its own user, with its own inbox prefix', () => {
    expect(natsConnectionOptions({ url, users }, 'usage')).toMatchObject({
      name: 'usage',
      user: 'usage',
      pass: 'secret',
      inboxPrefix: '_INBOX_usage',
    });
  });

  it('refuses a deployable whose credentials the settings lack, rather than connect it anonymously', () => {
    expect(() => natsConnectionOptions({ url, users }, 'community')).toThrow(
      /No NATS credentials for community/,
    );
  });

  it('connects anonymously only a client that says it is no deployable', () => {
    const options = natsConnectionOptions({ url, users }, { anonymous: 'a-test' });
    expect(options.name).toBe('a-test');
    expect(options).not.toHaveProperty('user');
    expect(options).not.toHaveProperty('inboxPrefix');
    // An untyped caller (a script) naming no deployable is refused, not connected anonymously.
    expect(() => natsConnectionOptions({ url }, 'a-test' as 'usage')).toThrow(
      /"a-test" is no NATS deployable: name a client of none as \{ anonymous: "a-test" \}/,
    );
  });
});
