import {
  PinoLoggerService,
  serviceClientProvider,
  ServiceCoreModule,
  type ServiceRuntimeOptions,
} from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { CatalogModule } from './catalog/catalog.module.js';
import type { SpeakerEnv } from './generation.config.js';
import { RunRegistry } from './runs/run-registry.js';
import { RUN_OPTIONS, RunsController, SPEAKER } from './runs/runs.controller.js';
import { createSpeaker } from './speakers/create-speaker.js';

export interface GenerationServiceOptions extends ServiceRuntimeOptions {
  /** The speaker and the pace; by default the offline speaker at the spec's pace. */
  readonly speakers?: Partial<SpeakerEnv>;
}

/** The generation service: the debate settings catalog, and the debates themselves. */
@Module({})
export class GenerationServiceModule {
  static register(options: GenerationServiceOptions): DynamicModule {
    const speakers = options.speakers ?? {};
    return {
      module: GenerationServiceModule,
      imports: [ServiceCoreModule.forService('generation', options), CatalogModule],
      controllers: [RunsController],
      providers: [
        {
          provide: RunRegistry,
          useValue: new RunRegistry(undefined, options.drainTimeoutMs ?? 10_000),
        },
        { provide: RUN_OPTIONS, useValue: { pauseMs: speakers.TURN_PAUSE_MS ?? 1000 } },
        {
          provide: SPEAKER,
          useFactory: (logger: PinoLoggerService) => createSpeaker(speakers, logger),
          inject: [PinoLoggerService],
        },
        serviceClientProvider(options.transport, 'generation'),
      ],
    };
  }
}
