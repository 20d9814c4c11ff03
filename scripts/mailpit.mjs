// Mailpit, the SMTP sink of development and tests: a real SMTP server that keeps every message it
// receives and shows them over HTTP (a web page, and the API the tests read the links from).
// Built from its Go module at a pinned version into the cache (scripts/go-tool.mjs):
// $XDG_CACHE_HOME/debate/mailpit-v1.27.11/mailpit. MIT-licensed.
//
//   node scripts/mailpit.mjs           builds Mailpit if needed and prints its path
//   node scripts/mailpit.mjs start     the same, then runs it on free ports until stopped
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ensureGoTool } from './go-tool.mjs';
import { freePort, isListening } from './workspace.mjs';

const MAILPIT_VERSION = 'v1.27.11';

const mailpit = {
  name: 'mailpit',
  module: 'github.com/axllent/mailpit',
  version: MAILPIT_VERSION,
  goVersion: '1.25',
  // A `go install` build calls itself "dev": the folder's version is what was built.
  runs: (bin) => {
    const result = spawnSync(bin, ['version', '--no-release-check'], { encoding: 'utf8' });
    return result.status === 0 ? result.stdout.trim() : '';
  },
};

/** The path of Mailpit at the pinned version, built first when needed (exits when it cannot be). */
const ensureMailpit = () => ensureGoTool(mailpit);

/**
 * Mailpit on loopback ports (free ones unless given), keeping its messages in memory. Resolves
 * once both ports answer: { smtpHost, smtpPort, url (its web page and API), stop() }.
 */
export async function startMailpit({ smtpPort, httpPort } = {}) {
  const bin = ensureMailpit();
  const smtp = smtpPort ?? (await freePort());
  const http = httpPort ?? (await freePort());
  const child = spawn(
    bin,
    [
      '--smtp',
      `127.0.0.1:${smtp}`,
      '--listen',
      `127.0.0.1:${http}`,
      '--disable-version-check',
      '--quiet',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  process.once('exit', () => child.kill('SIGTERM'));
  const deadline = Date.now() + 30_000;
  while (!((await isListening(smtp)) && (await isListening(http)))) {
    if (child.exitCode !== null) throw new Error(`Mailpit exited (${child.exitCode}) at start`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error('Mailpit did not listen within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { smtpHost: '127.0.0.1', smtpPort: smtp, url: `http://127.0.0.1:${http}`, stop };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === 'start') {
    const running = await startMailpit();
    process.stdout.write(
      `Mailpit: SMTP at ${running.smtpHost}:${running.smtpPort}, messages at ${running.url}\n`,
    );
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, () => void running.stop().then(() => process.exit(0)));
    }
  } else {
    process.stdout.write(`${ensureMailpit()}\n`);
  }
}
