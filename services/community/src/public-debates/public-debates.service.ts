import {
  ANONYMOUS_SHARER,
  type communityDebateContracts,
  type Debate,
  type ParsedRequestOf,
  type ResponseOf,
  StanceAfter,
  type ViewerMarks,
  type VoteCounts,
  type VoteKind,
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
import { LeaderboardService } from '../leaderboard/leaderboard.service.js';
import { mindsChangedOf } from '../minds/minds-changed.js';
import { CLOCK, type Clock, type Reader, ViewsRepository } from '../views/views.repository.js';
import { countsOf, toPublicDebate, toRankedDebate } from './public-debates.mapper.js';
import {
  type MindsMoves,
  PublicDebatesRepository,
  type ReaderState,
} from './public-debates.repository.js';

type Contracts = typeof communityDebateContracts;

/** The counter each vote kind moves. */
const counterOf: Record<VoteKind, keyof VoteCounts> = {
  FOR: 'upvotes',
  AGAINST: 'downvotes',
  INTERESTING: 'interesting',
};

/** Why a reader is not asked where they stood before reading, in words. */
const BEFORE_REFUSED = {
  answered: 'Where you stood before reading this debate is already recorded, or was skipped.',
  voted: 'You have voted on this debate: where you stood before reading it can no longer be asked.',
  author: 'You wrote this debate: the question is for its readers.',
} as const;

/** A vote that says where its voter stands after reading: For or Against. */
const stanceAfter = (kind: VoteKind | null): StanceAfter | null =>
  StanceAfter.safeParse(kind).data ?? null;

/** A reader's marks on a debate: asked first only with no answer, no vote, and not the author. */
function marksOf(state: ReaderState, readerId: string): ViewerMarks {
  const myVote = state.votes?.[readerId] ?? null;
  const standBefore = state.before?.[readerId] ?? null;
  return {
    myVote,
    standBefore,
    askBefore: standBefore === null && myVote === null && state.userId !== readerId,
  };
}

/**
 * The community's rules for the public debates: what a shared debate's copy starts with, which
 * stars a ranking view reads, how a vote moves the counters, and who may star what.
 */
@Injectable()
export class PublicDebatesService {
  constructor(
    private readonly debates: PublicDebatesRepository,
    private readonly stars: StarsRepository,
    private readonly leaderboard: LeaderboardService,
    private readonly views: ViewsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Publishes (or refreshes) the copy of a shared debate. A new copy starts with the author's
   * own For vote (upvotes 1, recorded in votes), no downvotes, no views.
   */
  async applyShared(debate: Debate): Promise<void> {
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
    const [reader, pair] = await Promise.all([
      viewerId ? this.debates.findReader(debateId, viewerId) : null,
      this.debates.findPair(found),
    ]);
    return {
      debate: toPublicDebate(found),
      viewer: reader && viewerId ? marksOf(reader, viewerId) : null,
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

  /**
   * Records where a reader stood before reading (null: skipped), once, in one conditional write
   * of the debate's document: refused after an answer or a skip, after a vote (their mind is
   * already shown), and for the author.
   */
  async standBefore({
    readerId,
    debateId,
    stance,
  }: ParsedRequestOf<Contracts['standBefore']>): Promise<ResponseOf<Contracts['standBefore']>> {
    const written = await this.debates.recordBefore(debateId, readerId, stance ?? 'SKIPPED');
    if (written) {
      return {
        found: true,
        viewer: marksOf(written, readerId),
        mindsChanged: mindsChangedOf(written.minds),
      };
    }
    const current = await this.debates.findReader(debateId, readerId);
    if (!current) return { found: false };
    const refused =
      current.userId === readerId ? 'author' : current.votes?.[readerId] ? 'voted' : 'answered';
    return { refused, message: BEFORE_REFUSED[refused] };
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

  /**
   * Sets (or, with null, removes) the voter's vote. The vote and the counters it moves change
   * in one conditional write of the debate's document: the write applies only if the voter's
   * vote is still the one it was read as, else it is read again and retried. So concurrent
   * votes never lose or double a count, and a crash leaves either both changed or neither.
   * A For or Against vote of a reader who said where they stood before reading is where they
   * stand after it: the same write moves their cell of the minds changed.
   */
  async vote({
    voterId,
    debateId,
    kind,
  }: ParsedRequestOf<Contracts['vote']>): Promise<ResponseOf<Contracts['vote']>> {
    for (;;) {
      const current = await this.debates.findVote(debateId, voterId);
      if (!current) return { found: false };
      const previous = current.votes?.[voterId] ?? null;
      if (previous === kind) {
        return {
          found: true,
          counts: countsOf(current),
          myVote: kind,
          mindsChanged: mindsChangedOf(current.minds),
        };
      }
      const before = current.before?.[voterId] ?? null;
      const minds = mindsMoves(before, stanceAfter(previous), stanceAfter(kind));
      const changed = await this.debates.replaceVote(debateId, voterId, previous, kind, before, {
        ...(previous ? { [counterOf[previous]]: -1 } : {}),
        ...(kind ? { [counterOf[kind]]: 1 } : {}),
        ...minds,
      });
      if (!changed) continue; // the vote changed (or the debate went) since it was read
      // A room's winner may have changed: the leaderboard's audience column is recomputed.
      if (Object.keys(minds).length > 0) void this.leaderboard.changed();
      const counts = countsOf(changed);
      // Of concurrent votes, the last one's write is the one that finds its counters, so the
      // scores end matching the counts.
      await this.debates.writeScores(debateId, counts, scoresOf(counts.upvotes, counts.downvotes));
      return { found: true, counts, myVote: kind, mindsChanged: mindsChangedOf(changed.minds) };
    }
  }

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

/** The minds-changed cells a vote moves: its voter's before × their old and new stance after. */
function mindsMoves(
  before: string | null,
  previous: StanceAfter | null,
  next: StanceAfter | null,
): MindsMoves {
  if (!before || before === 'SKIPPED' || previous === next) return {};
  return {
    ...(previous ? { [`minds.${before}.${previous}`]: -1 } : {}),
    ...(next ? { [`minds.${before}.${next}`]: 1 } : {}),
  };
}
