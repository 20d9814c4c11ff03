import {
  ANONYMOUS_SHARER,
  type communityDebateContracts,
  type ParsedRequestOf,
  type ResponseOf,
  type SharedDebate,
} from '@debate/contracts';
import { Inject, Injectable } from '@nestjs/common';
import {
  decodeRankCursor,
  encodeRankCursor,
  periodStart,
  scoreField,
  scoresOf,
} from '../ranking/ranking.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { CLOCK, type Clock, type Reader, ViewsRepository } from '../views/views.repository.js';
import { VotesService } from '../votes/votes.service.js';
import { toPublicDebate, toRankedDebate } from './public-debates.mapper.js';
import { PublicDebatesRepository } from './public-debates.repository.js';

type Contracts = typeof communityDebateContracts;

/**
 * The community's rules for the public debates: what a shared debate's copy starts with, what a
 * reader's fetch counts and shows, and which stars a ranking view reads.
 */
@Injectable()
export class PublicDebatesService {
  constructor(
    private readonly debates: PublicDebatesRepository,
    private readonly stars: StarsRepository,
    private readonly votes: VotesService,
    private readonly views: ViewsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Publishes (or refreshes) the copy of a shared debate. A new copy starts with the author's
   * own For vote (upvotes 1, recorded in votes), no downvotes, no views.
   */
  async applyShared(debate: SharedDebate): Promise<void> {
    if (!debate.sharedAt) return;
    await this.debates.upsertShared({
      id: debate.id,
      sharedAt: new Date(debate.sharedAt),
      content: {
        userId: debate.userId,
        userDisplayName: debate.userDisplayName.trim() || ANONYMOUS_SHARER,
        topic: debate.topic,
        categories: debate.categories,
        timestamp: new Date(debate.timestamp),
        isPro: debate.isPro,
        model1: debate.model1,
        model2: debate.model2,
        rounds: debate.rounds,
        verdict: debate.verdict,
        debateFormat: debate.debateFormat,
        moderatorEnabled: debate.moderatorEnabled,
        rematchOf: debate.rematchOf,
        stopped: debate.stopped,
        isPublic: true,
      },
      initial: {
        upvotes: 1,
        downvotes: 0,
        interesting: 0,
        views: 0,
        votes: { [debate.userId]: 'FOR' },
        before: {},
        minds: {},
        ...scoresOf(1, 0),
      },
    });
  }

  /** Takes the copy of a debate no longer public down, as of `at`. */
  async applyUnshared(debateId: string, at: Date): Promise<void> {
    await this.debates.markRemoved(debateId, at);
  }

  async get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const { debateId, viewerId } = request;
    let found = await this.debates.findPublic(debateId, false);
    if (!found) return { debate: null, viewer: null, pair: null };
    // A view counts once per reader and UTC day: reading again, or reloading, adds none; a
    // counted fetch without a reader (a gateway of the last version's) adds none either.
    const viewedBy: Reader | undefined = viewerId
      ? { account: viewerId }
      : request.readerAddress
        ? { address: request.readerAddress }
        : undefined;
    if (
      request.countView &&
      viewedBy &&
      (await this.views.markToday(debateId, viewedBy, this.clock()))
    ) {
      found = (await this.debates.findPublic(debateId, true)) ?? found;
    }
    const [viewer, pair] = await Promise.all([
      viewerId ? this.votes.marksOn(debateId, viewerId) : null,
      this.debates.findPair(found),
    ]);
    return {
      debate: toPublicDebate(found),
      viewer,
      pair: pair
        ? {
            id: pair._id,
            sharedAt: pair.sharedAt.toISOString(),
            model1: pair.model1,
            model2: pair.model2,
            verdict: pair.verdict ?? null,
            isRematch: pair.rematchOf === found._id,
          }
        : null,
    };
  }

  /** A page of the ranking; each card carries the viewer's own vote and star. */
  async rank(request: ParsedRequestOf<Contracts['rank']>): Promise<ResponseOf<Contracts['rank']>> {
    const { viewerId, sort, limit } = request;
    const now = new Date();
    const after = request.after ? decodeRankCursor(request.after, sort) : undefined;
    if (request.after && !after) {
      return { invalid: 'cursor', message: 'Invalid cursor: ask for the first page again' };
    }
    const localStars = request.starredIds ?? [];
    // All of the viewer's stars only for the Starred view; else just those on the page.
    const onlyIds = request.starredOnly
      ? viewerId
        ? await this.stars.ids(viewerId)
        : localStars
      : undefined;
    const score = scoreField[sort];
    // One card more than the page, to know whether another page follows.
    const found = await this.debates.rankPage({
      score,
      category: request.category,
      onlyIds,
      since: periodStart(request.period, now, request.utcOffsetMinutes),
      after,
      viewerId,
      limit: limit + 1,
    });
    const page = found.slice(0, limit);
    const last = page.at(-1);
    const next =
      found.length > limit && last
        ? encodeRankCursor({
            sort,
            score: score ? (last[score] ?? 0) : null,
            sharedAt: last.sharedAt,
            id: last._id,
          })
        : null;
    const ids = page.map((document) => document._id);
    const starred = new Set(
      viewerId
        ? await this.stars.starredAmong(viewerId, ids)
        : localStars.filter((id) => ids.includes(id)),
    );
    return {
      debates: page.map((document) =>
        toRankedDebate(document, viewerId, starred.has(document._id)),
      ),
      next,
    };
  }
}
