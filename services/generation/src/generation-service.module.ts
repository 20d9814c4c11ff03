import {
  PinoLoggerService,
  serviceClientProvider,
  ServiceCoreModule,
  type ServiceRuntimeOptions,
} from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { CatalogController } from './catalog/catalog.controller.js';
import type { SpeakerEnv } from './generation.config.js';
import { RunRegistry } from './runs/run-registry.js';
import { RunsController } from './runs/runs.controller.js';
import type { RunOptions } from './runs/debate-run.js';
import { RUN_OPTIONS, RunsService } from './runs/runs.service.js';
import { LOCAL_MODEL_ID, LOCAL_MODEL_TIMEOUT_MS, LocalModelWatcher } from './models/local-model.js';
import { configuredModels } from './models/model-catalog.js';
import { Models } from './models/models.js';

export interface GenerationServiceOptions extends ServiceRuntimeOptions {
  /** The models and the pace; by default the offline speaker alone, at the spec's pace. */
  readonly speakers?: Partial<SpeakerEnv>;
  /** Where the catalogue's keys are read (each entry's apiKeyEnv); by default the environment. */
  readonly secrets?: Readonly<Record<string, string | undefined>>;
}

/** The generation service: the debate settings catalog, and the debates themselves. */
@Module({})
export class GenerationServiceModule {
  static register(options: GenerationServiceOptions): DynamicModule {
    const speakers = options.speakers ?? {};
    return {
      module: GenerationServiceModule,
      imports: [ServiceCoreModule.forService('generation', options)],
      controllers: [CatalogController, RunsController],
      providers: [
        RunsService,
        {
          provide: RunRegistry,
          useValue: new RunRegistry(undefined, options.drainTimeoutMs ?? 10_000),
        },
        {
          provide: RUN_OPTIONS,
          useValue: {
            pauseMs: speakers.TURN_PAUSE_MS ?? 1000,
            personTurnTimeoutMs: speakers.PERSON_TURN_TIMEOUT_MS,
          } satisfies RunOptions,
        },
        {
          provide: Models,
          useFactory: (logger: PinoLoggerService) =>
            new Models(
              configuredModels(speakers, options.secrets ?? process.env),
              {
                timeoutMs: speakers.OPENAI_TIMEOUT_MS ?? 60_000,
                maxRetries: speakers.OPENAI_MAX_RETRIES ?? 2,
                idleTimeoutMs: speakers.OPENAI_IDLE_TIMEOUT_MS ?? 30_000,
                judges: speakers.JUDGE_MODELS ?? [],
                panelSize: speakers.JUDGE_PANEL_SIZE ?? 1,
                addedLater: speakers.LOCAL_MODEL_SERVER ? [LOCAL_MODEL_ID] : [],
                ...(speakers.SEARCH_URL
                  ? {
                      search: {
                        url: speakers.SEARCH_URL,
                        apiKey: speakers.SEARCH_API_KEY,
                        timeoutMs: speakers.SEARCH_TIMEOUT_MS ?? 8_000,
                      },
                    }
                  : {}),
                offline: {
                  speakerMode: speakers.OFFLINE_SPEAKER_MODE ?? 'single',
                  tokensPerSecond: speakers.OFFLINE_TOKENS_PER_SECOND ?? 30,
                  firstTokenDelayMs: speakers.OFFLINE_FIRST_TOKEN_MS ?? 200,
                },
              },
              logger,
            ),
          inject: [PinoLoggerService],
        },
        {
          // Asks the embedded model server (LOCAL_MODEL_SERVER) from bootstrap to shutdown; once
          // ready its model is the catalogue's first, and judges unless JUDGE_MODELS says who.
          provide: LocalModelWatcher,
          useFactory: (models: Models, logger: PinoLoggerService) =>
            new LocalModelWatcher(
              speakers.LOCAL_MODEL_SERVER,
              (entry) =>
                models.putFirst(entry, {
                  judge:
                    speakers.JUDGE_MODELS === undefined ||
                    speakers.JUDGE_MODELS.includes(LOCAL_MODEL_ID),
                  // A model on this machine's CPU may take minutes over a judge's whole
                  // scorecard (not streamed), more with other debates at once: OPENAI_TIMEOUT_MS
                  // is sized for a provider's GPUs.
                  timeoutMs: Math.max(speakers.OPENAI_TIMEOUT_MS ?? 60_000, LOCAL_MODEL_TIMEOUT_MS),
                }),
              logger,
            ),
          inject: [Models, PinoLoggerService],
        },
        serviceClientProvider(options.transport, 'generation'),
      ],
    };
  }
}
