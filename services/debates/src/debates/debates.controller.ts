import { debatesContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { DebatesService } from './debates.service.js';

type Contracts = typeof debatesContracts;

/** The debates service's requests: a user's saved debates, private until shared. */
@Controller()
export class DebatesController {
  constructor(private readonly debates: DebatesService) {}

  @HandleRequest(debatesContracts.save)
  save(request: ParsedRequestOf<Contracts['save']>): Promise<ResponseOf<Contracts['save']>> {
    return this.debates.save(request);
  }

  @HandleRequest(debatesContracts.list)
  list(request: ParsedRequestOf<Contracts['list']>): Promise<ResponseOf<Contracts['list']>> {
    return this.debates.list(request);
  }

  @HandleRequest(debatesContracts.get)
  get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    return this.debates.get(request);
  }

  @HandleRequest(debatesContracts.unsaved)
  unsaved(
    request: ParsedRequestOf<Contracts['unsaved']>,
  ): Promise<ResponseOf<Contracts['unsaved']>> {
    return this.debates.unsaved(request);
  }

  @HandleRequest(debatesContracts.keepRun)
  keepRun(
    request: ParsedRequestOf<Contracts['keepRun']>,
  ): Promise<ResponseOf<Contracts['keepRun']>> {
    return this.debates.keepRun(request);
  }

  @HandleRequest(debatesContracts.share)
  share(request: ParsedRequestOf<Contracts['share']>): Promise<ResponseOf<Contracts['share']>> {
    return this.debates.share(request);
  }

  @HandleRequest(debatesContracts.unshare)
  unshare(
    request: ParsedRequestOf<Contracts['unshare']>,
  ): Promise<ResponseOf<Contracts['unshare']>> {
    return this.debates.unshare(request);
  }

  @HandleRequest(debatesContracts.delete)
  delete(request: ParsedRequestOf<Contracts['delete']>): Promise<ResponseOf<Contracts['delete']>> {
    return this.debates.delete(request);
  }
}
