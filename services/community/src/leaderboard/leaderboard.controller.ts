import { leaderboardContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { LeaderboardService } from './leaderboard.service.js';

type Contracts = typeof leaderboardContracts;

/**
 * The leaderboard's requests: a stored board, never computed on the request's time; a user's
 * listing on the People board, read and set.
 */
@Controller()
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardService) {}

  @HandleRequest(leaderboardContracts.get)
  get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    return this.leaderboard.board(request);
  }

  @HandleRequest(leaderboardContracts.getListing)
  getListing(
    request: ParsedRequestOf<Contracts['getListing']>,
  ): Promise<ResponseOf<Contracts['getListing']>> {
    return this.leaderboard.listing(request);
  }

  @HandleRequest(leaderboardContracts.setListing)
  setListing(
    request: ParsedRequestOf<Contracts['setListing']>,
  ): Promise<ResponseOf<Contracts['setListing']>> {
    return this.leaderboard.setListing(request);
  }
}
