import {
  generationContracts,
  type ParsedRequestOf,
  type ResponseOf,
  type RunEvent,
  runLookupContract,
} from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { RunsService } from './runs.service.js';

type Contracts = typeof generationContracts;

/**
 * The generation service's requests on the debates' runs: starting, watching, stopping, a
 * person's turns and looking up.
 */
@Controller()
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @HandleRequest(generationContracts.start)
  start(request: ParsedRequestOf<Contracts['start']>): Promise<ResponseOf<Contracts['start']>> {
    return this.runs.start(request);
  }

  @HandleRequest(generationContracts.writeExample)
  writeExample(
    request: ParsedRequestOf<Contracts['writeExample']>,
  ): Promise<ResponseOf<Contracts['writeExample']>> {
    return this.runs.writeExample(request);
  }

  @HandleRequest(runLookupContract, { onThisInstance: true })
  get(request: ParsedRequestOf<typeof runLookupContract>): ResponseOf<typeof runLookupContract> {
    return this.runs.get(request);
  }

  @HandleRequest(generationContracts.stop, { onThisInstance: true })
  stop(request: ParsedRequestOf<Contracts['stop']>): Promise<ResponseOf<Contracts['stop']>> {
    return this.runs.stop(request);
  }

  @HandleRequest(generationContracts.submitTurn, { onThisInstance: true })
  submitTurn(
    request: ParsedRequestOf<Contracts['submitTurn']>,
  ): ResponseOf<Contracts['submitTurn']> {
    return this.runs.submitTurn(request);
  }

  @HandleRequest(generationContracts.watch, { onThisInstance: true })
  watch(request: ParsedRequestOf<Contracts['watch']>): Observable<RunEvent> {
    return this.runs.watch(request);
  }
}
