export { DEFAULT_LOCAL_MODEL, mirroredModel } from './default-model.js';
export { DownloadError, downloadModel, type ModelDownload } from './download.js';
export {
  type ModelServer,
  type ModelServerOptions,
  defaultThreads,
  startModelServer,
} from './server.js';
export type { LocalModelState, ModelHealth } from './state.js';
export {
  downloadProgressLine,
  modelStateReporter,
  type ModelStateReporterOptions,
} from './progress.js';
