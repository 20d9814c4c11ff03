import { leaderboardContracts, type ParsedRequestOf, type ResponseOf } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { LeaderboardService } from './leaderboard.service.js';

type Contracts = typeof leaderboardContracts;

/** The leaderboard's request: a stored board, never computed on the request's time. */
@Controller()
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardService) {}

  @HandleRequest(leaderboardContracts.get)
  get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    return this.leaderboard.board(request);
  }
}
