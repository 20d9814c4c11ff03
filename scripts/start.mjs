// npm start: install if needed, build, and run the whole platform in ONE Node process
// (five services and the gateway over the in-process transport) at http://127.0.0.1:3000, on this
// machine only unless HOST says otherwise (platform/src/platform.config.ts).
import { spawn } from 'node:child_process';
import { buildAll, ensureInstalled, platformArgs, root } from './workspace.mjs';

ensureInstalled();
buildAll();

const child = spawn(process.execPath, platformArgs, {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
