export {
  type GenerationServiceOptions,
  GenerationServiceModule,
} from './generation-service.module.js';
export { generationEnvSchema, type SpeakerEnv, speakerEnvSchema } from './generation.config.js';
