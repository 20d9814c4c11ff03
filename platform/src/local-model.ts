import {
  DEFAULT_LOCAL_MODEL,
  mirroredModel,
  type ModelServer,
  type ModelServerOptions,
  modelStateReporter,
  startModelServer,
} from '@debate/embedded-model';
import { localModelSettings, type PlatformEnv } from './platform.config.js';

export interface LocalModel {
  /** The model server npm start runs in this process; unset when it runs none. */
  readonly server?: ModelServer;
  /** The start's line on the local model, as things stand when it is asked. */
  summary(): string;
}

/** What npm start says when the local model cannot be had, once. */
function localModelFailure(reason: string, file: string | undefined): string {
  return file
    ? `The local model could not be loaded from LOCAL_MODEL_FILE=${file} (${reason}): debates use the offline speaker. ` +
        'Give LOCAL_MODEL_FILE a GGUF model; to skip it: LOCAL_MODEL=off.'
    : `The local model could not be fetched (${reason}): debates use the offline speaker. ` +
        'To use a file already on this machine: LOCAL_MODEL_FILE=/path/to/model.gguf npm start; ' +
        'to skip it: LOCAL_MODEL=off.';
}

type LocalModelEnv = Pick<
  PlatformEnv,
  | 'LOCAL_MODEL'
  | 'LOCAL_MODEL_FILE'
  | 'LOCAL_MODEL_CACHE'
  | 'LOCAL_MODEL_THREADS'
  | 'LOCAL_MODEL_GPU'
  | 'LOCAL_MODEL_SERVER'
> &
  Partial<Pick<PlatformEnv, 'LOCAL_MODEL_URL' | 'LOCAL_MODEL_SHA256'>>;

/**
 * npm start's local model (LOCAL_MODEL, on by default): the embedded model server in this
 * process on 127.0.0.1 and a free port, serving LOCAL_MODEL_FILE or the default model, which it
 * fetches into LOCAL_MODEL_CACHE in the background. It resolves as soon as the server listens
 * (the web app must not wait for a download); the terminal gets the download's progress at most
 * every 5 % and, if the model cannot be had, why, once: the platform goes on with the offline
 * speaker. A LOCAL_MODEL_SERVER given from outside is used as it is, and none is started.
 */
export async function startLocalModel(
  env: LocalModelEnv,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  start: (options: ModelServerOptions) => Promise<ModelServer> = startModelServer,
): Promise<LocalModel> {
  if (env.LOCAL_MODEL === 'off') {
    return {
      summary: () => 'Local model: none (LOCAL_MODEL=off); debates use the offline speaker',
    };
  }
  if (env.LOCAL_MODEL_SERVER) {
    const origin = env.LOCAL_MODEL_SERVER;
    return { summary: () => `Local model: the model server at ${origin} (LOCAL_MODEL_SERVER)` };
  }
  const settings = localModelSettings(env);
  const { file, mirror } = settings;
  try {
    const download = mirror ? mirroredModel(mirror.url, mirror.sha256) : DEFAULT_LOCAL_MODEL;
    const server = await start({
      host: '127.0.0.1',
      port: 0,
      source: file ? { file } : { download, cacheDir: settings.cacheDir },
      threads: settings.threads,
      gpu: settings.gpu,
      logger: { log: write, warn: (message) => process.stderr.write(`${message}\n`) },
      onState: modelStateReporter({ write, failed: (reason) => localModelFailure(reason, file) }),
    });
    const what = file
      ? `${file} (LOCAL_MODEL_FILE)`
      : `${download.name}, kept in ${settings.cacheDir} (fetched there${mirror ? ` from ${mirror.url} (LOCAL_MODEL_URL)` : ''} in the background on the first start)`;
    const threads = `${settings.threads} thread${settings.threads === 1 ? '' : 's'}${settings.gpu ? ' (a GPU where one is installed)' : ''}`;
    return {
      server,
      summary: () => {
        const { status } = server.state();
        if (status === 'failed') return 'Local model: none (why is said above)';
        return (
          `Local model: ${what}, served at ${server.url} with ${threads}` +
          (status === 'ready'
            ? ' (LOCAL_MODEL=off skips it)'
            : '; debates use the offline speaker until it is ready (LOCAL_MODEL=off skips it)')
        );
      },
    };
  } catch (error) {
    write(
      `The local model could not be started (${(error as Error).message ?? String(error)}): ` +
        'debates use the offline speaker. To skip it: LOCAL_MODEL=off.',
    );
    return { summary: () => 'Local model: none (why is said above)' };
  }
}
