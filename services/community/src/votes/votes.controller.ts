import { communityDebateContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { VotesService } from './votes.service.js';

type Contracts = typeof communityDebateContracts;

/** The community's requests on the votes: a vote, and where a reader stood before reading. */
@Controller()
export class VotesController {
  constructor(private readonly votes: VotesService) {}

  @HandleRequest(communityDebateContracts.vote)
  vote(request: ParsedRequestOf<Contracts['vote']>): Promise<ResponseOf<Contracts['vote']>> {
    return this.votes.vote(request);
  }

  @HandleRequest(communityDebateContracts.standBefore)
  standBefore(
    request: ParsedRequestOf<Contracts['standBefore']>,
  ): Promise<ResponseOf<Contracts['standBefore']>> {
    return this.votes.standBefore(request);
  }
}
