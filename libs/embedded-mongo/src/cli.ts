import { parseArgs } from 'node:util';
import { start } from './server.js';

const usage =
  'usage: embedded-mongo --port <n> --dbpath <dir> [--bind_ip <address> --allow-remote]\n' +
  'A MongoDB-compatible server for development and tests. It has no authentication: it binds\n' +
  '127.0.0.1 unless --bind_ip names another address and --allow-remote confirms it.\n';

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      dbpath: { type: 'string' },
      bind_ip: { type: 'string', default: '127.0.0.1' },
      'allow-remote': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const port = Number(values.port);
const problems: string[] = [];
if (!Number.isInteger(port) || port < 0 || port > 65_535) problems.push('--port must be 0-65535');
if (!values.dbpath) problems.push('--dbpath is required');
if (problems.length > 0) {
  process.stderr.write(`${problems.join('; ')}\n${usage}`);
  process.exit(2);
}

try {
  const server = await start({
    port,
    dbPath: values.dbpath as string,
    host: values.bind_ip,
    allowRemote: values['allow-remote'],
  });
  process.stdout.write(`embedded-mongo listening at ${server.uri} (data in ${values.dbpath})\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stderr.write(`embedded-mongo: ${(error as Error).message}\n`);
  process.exit(1);
}
