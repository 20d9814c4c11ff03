import type { LocalModelState } from './state.js';

/** Bytes in megabytes (10^6, as the model's page on huggingface.co counts them). */
const megabytes = (bytes: number) => Math.round(bytes / 1_000_000);

/** A progress line every 5 %; with the size unknown, every 100 MB. */
const PERCENT_STEP = 5;
const UNKNOWN_SIZE_STEP = 100_000_000;

/**
 * The line a launcher prints while the model downloads:
 * `The local model is downloading: 43 % (480 MB of 1117 MB)`.
 */
export function downloadProgressLine(receivedBytes: number, totalBytes: number | null): string {
  if (totalBytes === null || totalBytes <= 0) {
    return `The local model is downloading: ${megabytes(receivedBytes)} MB`;
  }
  const percent = Math.min(100, Math.floor((receivedBytes / totalBytes) * 100));
  return `The local model is downloading: ${percent} % (${megabytes(receivedBytes)} MB of ${megabytes(totalBytes)} MB)`;
}

export interface ModelStateReporterOptions {
  /** Writes one line (without its line break) where the operator reads it. */
  readonly write: (line: string) => void;
  /**
   * The line that says why the model is not there, said once: `during` is `download` when it
   * failed while being fetched (or checked), `load` when the file did not load.
   */
  readonly failed: (reason: string, during: 'download' | 'load') => string;
  /** The line once it is ready; unset, none. */
  readonly ready?: () => string;
}

/**
 * An `onState` for the model server that tells a terminal what a person needs to know, and no
 * more: the download's progress at most once per 5 % (per 100 MB when the size is unknown),
 * that the model is loading, that it is ready, and why it failed, each said once.
 */
export function modelStateReporter(
  options: ModelStateReporterOptions,
): (state: LocalModelState) => void {
  let lastStep: number | undefined;
  let previous: LocalModelState['status'] | undefined;
  let failed = false;
  return (state) => {
    if (failed) return;
    switch (state.status) {
      case 'downloading': {
        const { receivedBytes, totalBytes } = state;
        const step =
          totalBytes && totalBytes > 0
            ? Math.floor((receivedBytes / totalBytes) * (100 / PERCENT_STEP))
            : Math.floor(receivedBytes / UNKNOWN_SIZE_STEP);
        if (lastStep === undefined || step > lastStep) {
          lastStep = step;
          options.write(downloadProgressLine(receivedBytes, totalBytes));
        }
        break;
      }
      case 'loading':
        if (previous !== 'loading') options.write('The local model is loading');
        break;
      case 'ready':
        if (previous !== 'ready' && options.ready) options.write(options.ready());
        break;
      case 'failed':
        failed = true;
        options.write(options.failed(state.reason, previous === 'loading' ? 'load' : 'download'));
        break;
    }
    previous = state.status;
  };
}
