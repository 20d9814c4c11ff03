import { communityDebateContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { PublicDebatesService } from './public-debates.service.js';

type Contracts = typeof communityDebateContracts;

/** The community's requests on the public debates: their ranking, votes and stars. */
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

  @HandleRequest(communityDebateContracts.vote)
  vote(request: ParsedRequestOf<Contracts['vote']>): Promise<ResponseOf<Contracts['vote']>> {
    return this.publicDebates.vote(request);
  }

  @HandleRequest(communityDebateContracts.standBefore)
  standBefore(
    request: ParsedRequestOf<Contracts['standBefore']>,
  ): Promise<ResponseOf<Contracts['standBefore']>> {
    return this.publicDebates.standBefore(request);
  }

  @HandleRequest(communityDebateContracts.toggleStar)
  toggleStar(
    request: ParsedRequestOf<Contracts['toggleStar']>,
  ): Promise<ResponseOf<Contracts['toggleStar']>> {
    return this.publicDebates.toggleStar(request);
  }

  @HandleRequest(communityDebateContracts.mergeStars)
  mergeStars(
    request: ParsedRequestOf<Contracts['mergeStars']>,
  ): Promise<ResponseOf<Contracts['mergeStars']>> {
    return this.publicDebates.mergeStars(request);
  }
}
