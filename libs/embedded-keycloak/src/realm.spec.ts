import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadRealmSettings, realmFile } from './realm.js';

/** The realm file with `change` applied, written in a temp folder beside `blacklist`. */
function withRealm<T>(
  change: (realm: Record<string, unknown>) => void,
  blacklist: string,
  read: (path: string) => T,
): T {
  const folder = mkdtempSync(join(tmpdir(), 'realm-'));
  try {
    const realm = JSON.parse(readFileSync(realmFile, 'utf8')) as Record<string, unknown>;
    change(realm);
    const path = join(folder, 'debate-realm.json');
    writeFileSync(path, JSON.stringify(realm));
    writeFileSync(join(folder, 'common-passwords.txt'), blacklist);
    return read(path);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('the realm settings', () => {
  it('reads each client from the realm file: its flows and its audiences', () => {
    const settings = loadRealmSettings();
    expect(settings.webClientId).toBe('debate-web');
    expect(settings.serviceClientId).toBe('identity-service');
    expect(settings.clients.get('debate-web')).toEqual({
      clientId: 'debate-web',
      publicClient: true,
      directAccessGrants: false,
      standardFlow: true,
      audiences: ['debate-gateway'],
    });
    expect(settings.clients.get('identity-service')).toEqual({
      clientId: 'identity-service',
      publicClient: false,
      directAccessGrants: true,
      standardFlow: false,
      audiences: ['debate-gateway'],
    });
  });

  it('takes as the web client the public client with the standard flow, on unless turned off', () => {
    const clientsOf = (realm: Record<string, unknown>) =>
      realm['clients'] as Array<Record<string, unknown>>;
    const settings = withRealm(
      (realm) => {
        for (const client of clientsOf(realm)) {
          if (client['clientId'] === 'debate-web') client['standardFlowEnabled'] = false;
        }
        // Keycloak's default: a client that does not say has the standard flow.
        clientsOf(realm).push({ clientId: 'another-web', publicClient: true });
      },
      'password\n',
      (path) => loadRealmSettings(path),
    );
    expect(settings.clients.get('debate-web')?.standardFlow).toBe(false);
    expect(settings.clients.get('another-web')?.standardFlow).toBe(true);
    expect(settings.webClientId).toBe('another-web');
  });

  it('reads the common-passwords list as Keycloak does: a password a line, lowercase', () => {
    const blacklist = withRealm(
      () => {},
      'Password\r\nletmein\n\nSunshine\n',
      (path) => loadRealmSettings(path).passwordBlacklist,
    );
    // A blank line names no password (Keycloak would add the empty one, which no policy reaches).
    expect(blacklist).toEqual(new Set(['password', 'letmein', 'sunshine']));
  });
});

describe('deploy/keycloak/common-passwords.txt', () => {
  const path = join(dirname(realmFile), 'common-passwords.txt');
  const text = readFileSync(path, 'utf8');

  it('is exactly the 10,000 passwords, a line each, with no blank line', () => {
    // Keycloak counts and loads every line (BufferedReader.lines(), lowercased): the text is the
    // list, each line ended by a newline, and nothing else.
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(10_000);
    expect(lines.filter((line) => line.trim() === '' || line !== line.trim())).toEqual([]);
    expect(lines.filter((line) => line !== line.toLowerCase())).toEqual([]);
    expect(new Set(lines).size).toBe(10_000);
  });

  it('is the list the embedded issuer refuses', () => {
    expect(loadRealmSettings().passwordBlacklist).toEqual(new Set(text.slice(0, -1).split('\n')));
  });
});
