import {
  type communityDebateContracts,
  type ParsedRequestOf,
  type ResponseOf,
} from '@debate/contracts';
import { Injectable } from '@nestjs/common';
import { PublicDebatesRepository } from '../public-debates/public-debates.repository.js';
import { StarsRepository } from './stars.repository.js';

type Contracts = typeof communityDebateContracts;

/** The community's rules for the stars (spec §4 'Starring'): who may star what. */
@Injectable()
export class StarsService {
  constructor(
    private readonly stars: StarsRepository,
    private readonly debates: PublicDebatesRepository,
  ) {}

  /**
   * Sets the user's star as `starred` says, or (without it) takes it away if there is one, else
   * adds it; a star is added on a public debate only.
   */
  async toggleStar({
    userId,
    debateId,
    starred,
  }: ParsedRequestOf<Contracts['toggleStar']>): Promise<ResponseOf<Contracts['toggleStar']>> {
    const [isPublic] = await this.debates.existing([debateId]);
    if (starred !== true && (await this.stars.remove(userId, debateId))) {
      return { found: true, starred: false };
    }
    if (starred === false) return isPublic ? { found: true, starred: false } : { found: false };
    // A debate no longer public can still lose its star, never gain one.
    if (!isPublic) return { found: false };
    await this.stars.insert(userId, debateId, new Date());
    return { found: true, starred: true };
  }

  /** Adds the given stars (a visitor's local ones) that are on public debates to the user's. */
  async mergeStars({
    userId,
    debateIds,
  }: ParsedRequestOf<Contracts['mergeStars']>): Promise<ResponseOf<Contracts['mergeStars']>> {
    const shared = await this.debates.existing([...new Set(debateIds)]);
    await this.stars.add(userId, shared, new Date());
    return { debateIds: await this.stars.ids(userId) };
  }
}
