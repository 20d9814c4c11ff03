import {
  communityDebateContracts,
  debateSharedEvent,
  debateUnsharedEvent,
  type ParsedRequestOf,
  type ResponseOf,
} from '@debate/contracts';
import { EventLog, HandleRequest, PinoLoggerService } from '@debate/nest';
import { Controller, type OnApplicationBootstrap } from '@nestjs/common';
import { StarsRepository } from '../stars/stars.repository.js';
import {
  InvalidCursorError,
  PublicDebatesRepository,
  toPublicDebate,
} from './public-debates.repository.js';

type Contracts = typeof communityDebateContracts;

/**
 * The community's public debates, fed by the debates service's events through a durable
 * consumer (a debate shared while this service is down appears when it is back); their
 * ranking, votes and stars.
 */
@Controller()
export class PublicDebatesController implements OnApplicationBootstrap {
  constructor(
    private readonly debates: PublicDebatesRepository,
    private readonly stars: StarsRepository,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const onProblem = (message: string) => this.logger.warn(message);
    await this.events.subscribe(
      debateSharedEvent,
      'community',
      ({ debate }) => this.debates.applyShared(debate),
      { onProblem },
    );
    await this.events.subscribe(
      debateUnsharedEvent,
      'community',
      ({ debateId, at }) => this.debates.applyUnshared(debateId, new Date(at)),
      { onProblem },
    );
  }

  @HandleRequest(communityDebateContracts.get)
  async get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const found = await this.debates.findPublic(request.debateId, request.countView);
    return { debate: found ? toPublicDebate(found) : null };
  }

  @HandleRequest(communityDebateContracts.rank)
  async rank(request: ParsedRequestOf<Contracts['rank']>): Promise<ResponseOf<Contracts['rank']>> {
    const { viewerId } = request;
    const localStars = request.starredIds ?? [];
    // All of the viewer's stars only for the Starred view; else just those on the page.
    const onlyIds = request.starredOnly
      ? viewerId
        ? await this.stars.ids(viewerId)
        : localStars
      : undefined;
    const starredAmong = async (ids: readonly string[]) =>
      new Set(
        viewerId
          ? await this.stars.starredAmong(viewerId, ids)
          : localStars.filter((id) => ids.includes(id)),
      );
    try {
      return await this.debates.rank({
        viewerId,
        category: request.category,
        sort: request.sort,
        period: request.period,
        utcOffsetMinutes: request.utcOffsetMinutes,
        onlyIds,
        starredAmong,
        after: request.after,
        limit: request.limit,
        now: new Date(),
      });
    } catch (error) {
      if (error instanceof InvalidCursorError) return { invalid: 'cursor', message: error.message };
      throw error;
    }
  }

  @HandleRequest(communityDebateContracts.vote)
  vote(request: ParsedRequestOf<Contracts['vote']>): Promise<ResponseOf<Contracts['vote']>> {
    return this.debates.vote(request.voterId, request.debateId, request.kind);
  }

  @HandleRequest(communityDebateContracts.toggleStar)
  async toggleStar(
    request: ParsedRequestOf<Contracts['toggleStar']>,
  ): Promise<ResponseOf<Contracts['toggleStar']>> {
    const [isPublic] = await this.debates.existing([request.debateId]);
    if (isPublic) {
      const starred = await this.stars.toggle(request.userId, request.debateId, new Date());
      return { found: true, starred };
    }
    // A debate no longer public can still lose its star, never gain one.
    const removed = await this.stars.remove(request.userId, request.debateId);
    return removed ? { found: true, starred: false } : { found: false };
  }

  @HandleRequest(communityDebateContracts.mergeStars)
  async mergeStars(
    request: ParsedRequestOf<Contracts['mergeStars']>,
  ): Promise<ResponseOf<Contracts['mergeStars']>> {
    const shared = await this.debates.existing([...new Set(request.debateIds)]);
    await this.stars.add(request.userId, shared, new Date());
    return { debateIds: await this.stars.ids(request.userId) };
  }
}
