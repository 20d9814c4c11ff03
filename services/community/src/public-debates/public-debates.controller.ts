import { communityDebateContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { PublicDebatesService } from './public-debates.service.js';

type Contracts = typeof communityDebateContracts;

/** The community's requests on the public debates: one debate, and a page of their ranking. */
@Controller()
export class PublicDebatesController {
  constructor(private readonly publicDebates: PublicDebatesService) {}

  @HandleRequest(communityDebateContracts.get)
  get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    return this.publicDebates.get(request);
  }

  @HandleRequest(communityDebateContracts.rank)
  rank(request: ParsedRequestOf<Contracts['rank']>): Promise<ResponseOf<Contracts['rank']>> {
    return this.publicDebates.rank(request);
  }
}
