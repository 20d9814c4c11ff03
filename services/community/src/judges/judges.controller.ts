import { judgesContracts, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { JudgesService } from './judges.service.js';

/** The judges' record: the stored report, never computed on the request's time. */
@Controller()
export class JudgesController {
  constructor(private readonly judges: JudgesService) {}

  @HandleRequest(judgesContracts.get)
  get(): Promise<ResponseOf<typeof judgesContracts.get>> {
    return this.judges.report();
  }
}
