// npm start: install if needed, build, and run the whole platform in ONE Node process
// (five services and the gateway over the in-process transport) at http://localhost:3000.
import { spawn } from 'node:child_process';
import { buildAll, ensureInstalled, root } from './workspace.mjs';

ensureInstalled();
buildAll();

const child = spawn(process.execPath, ['platform/dist/main.js'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
