import { communityDebateContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { StarsService } from './stars.service.js';

type Contracts = typeof communityDebateContracts;

/** The community's requests on the stars: a user's star on a debate, and a visitor's kept ones. */
@Controller()
export class StarsController {
  constructor(private readonly stars: StarsService) {}

  @HandleRequest(communityDebateContracts.toggleStar)
  toggleStar(
    request: ParsedRequestOf<Contracts['toggleStar']>,
  ): Promise<ResponseOf<Contracts['toggleStar']>> {
    return this.stars.toggleStar(request);
  }

  @HandleRequest(communityDebateContracts.mergeStars)
  mergeStars(
    request: ParsedRequestOf<Contracts['mergeStars']>,
  ): Promise<ResponseOf<Contracts['mergeStars']>> {
    return this.stars.mergeStars(request);
  }
}
