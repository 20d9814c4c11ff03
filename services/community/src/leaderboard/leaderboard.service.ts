import type {
  LeaderboardBoard,
  leaderboardContracts,
  ParsedRequestOf,
  ResponseOf,
} from '@debate/contracts';
import { PinoLoggerService } from '@debate/nest';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BOOTSTRAP_ROUNDS } from './bradley-terry.js';
import { boardKeys, computeBoard, ratingsOf } from './leaderboard-boards.js';
import { LeaderboardRepository } from './leaderboard.repository.js';
import { JudgesService } from '../judges/judges.service.js';
import { PeopleListingsRepository } from './people-listings.repository.js';

type Contracts = typeof leaderboardContracts;

/**
 * The least pause between two recomputes in a row: a burst of shares is coalesced into fewer of
 * them, and the service keeps at least half its time for requests (the pause is at least as
 * long as the last recompute took).
 */
const MIN_PAUSE_MS = 200;

/**
 * How far behind the judges' record and the controlled boards may fall while changes keep
 * coming: a recompute skips them when another change is already waiting (the next recompute
 * reads the debates again), unless they were last stored longer ago than this.
 */
const CONTROLLED_STALENESS_MS = 10_000;

/**
 * The token of the daily limit: how many debates of one author and one pairing shared on one UTC
 * day the leaderboard counts (LEADERBOARD_DAILY_LIMIT).
 */
export const LEADERBOARD_DAILY_LIMIT = Symbol('LEADERBOARD_DAILY_LIMIT');

/** A board before the first recompute: nothing rated yet. */
function emptyBoard(
  subject: LeaderboardBoard['subject'],
  pairsOnly: boolean,
  controlled: boolean,
): LeaderboardBoard {
  return {
    subject,
    pairsOnly,
    controlled,
    rows: [],
    apart: [],
    debates: 0,
    apartDebates: 0,
    notRated: { sameSubject: 0, notRecorded: 0, personalityHints: 0, dailyLimit: 0 },
    bootstrapRounds: BOOTSTRAP_ROUNDS,
    computedAt: null,
    computeMs: null,
  };
}

/**
 * The leaderboard: the boards are recomputed in the background when the verdicts they are made
 * of change (a judged debate shared or unshared, a vote that moves its minds changed), and at
 * start, and stored; a request reads the stored board, whatever replica it reaches. Recomputes
 * are coalesced: one at a time, and however many changes arrive during one, one more after it
 * (and after a pause as long as it took).
 */
@Injectable()
export class LeaderboardService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopping = false;
  private lastMs = 0;
  /** When the controlled boards were last stored (performance.now()); null: not yet. */
  private controlledAt: number | null = null;

  constructor(
    private readonly repository: LeaderboardRepository,
    private readonly listings: PeopleListingsRepository,
    private readonly judges: JudgesService,
    private readonly logger: PinoLoggerService,
    @Inject(LEADERBOARD_DAILY_LIMIT) private readonly dailyLimit: number,
  ) {}

  onApplicationBootstrap(): void {
    // At start: changes made while no replica was up (or a new way of computing) show.
    void this.changed();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await (this.queued ?? this.running);
  }

  /**
   * Something the boards are made of changed: recomputes them in the background. Resolves once
   * the boards are recomputed from the debates as they are now (or later); never rejects (a
   * failed recompute is logged, and the next change or start tries again).
   */
  changed(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) {
      this.running = this.recompute();
      return this.running;
    }
    // One is running: it may have read before this change. One more after it, after a pause.
    this.queued = this.running
      .then(() => sleep(Math.max(MIN_PAUSE_MS, this.lastMs)))
      .then(() => {
        this.queued = null;
        this.running = this.recompute();
        return this.running;
      });
    return this.queued;
  }

  /**
   * The stored board of the request's subject. The People board has no completed pairs (a
   * debate against a person has no rematch): asked for pairs only, it answers its one board.
   */
  async board(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const { subject, controlled } = request;
    const pairsOnly = subject === 'PEOPLE' ? false : request.pairsOnly;
    return (
      (await this.repository.board(subject, pairsOnly, controlled)) ??
      emptyBoard(subject, pairsOnly, controlled)
    );
  }

  /** The user's listing on the People board, and how many of their debates it rated. */
  async listing({
    userId,
  }: ParsedRequestOf<Contracts['getListing']>): Promise<ResponseOf<Contracts['getListing']>> {
    const [name, ratedDebates] = await Promise.all([
      this.listings.nameOf(userId),
      this.repository.ratedPersonDebates(userId),
    ]);
    return { listed: name !== null, name, ratedDebates };
  }

  /** Lists the user (or takes them off); the People board is recomputed in the background. */
  async setListing(
    request: ParsedRequestOf<Contracts['setListing']>,
  ): Promise<ResponseOf<Contracts['setListing']>> {
    if (request.listed) await this.listings.list(request.userId, request.name, new Date());
    else await this.listings.unlist(request.userId);
    void this.changed();
    return this.listing(request);
  }

  private async recompute(): Promise<void> {
    try {
      if (this.stopping) return;
      const started = performance.now();
      const readAt = new Date();
      const [{ debates, stored, unreadable }, listings] = await Promise.all([
        this.repository.ratedDebates(),
        this.listings.all(),
      ]);
      // Whether each debate is rated, or why not: once, for every board and for the cards.
      const ratings = ratingsOf(debates, this.dailyLimit);
      // The boards as rated first, the controlled ones last, each stored once computed: the length
      // covariate is fitted game by game, several times slower, and a share shows on the boards
      // as rated as soon as it did before there were controlled ones.
      const saveBoards = async (controlled: boolean) => {
        const boards: LeaderboardBoard[] = [];
        for (const key of boardKeys.filter((board) => board.controlled === controlled)) {
          boards.push(
            await computeBoard(debates, key.subject, key.pairsOnly, readAt, {
              ratings,
              listings,
              controlled,
            }),
          );
        }
        const ms = Math.round(performance.now() - started);
        for (const board of boards) await this.repository.save({ ...board, computeMs: ms }, readAt);
        return ms;
      };
      const computeMs = await saveBoards(false);
      // The pause before the next recompute is as long as the boards as rated took: what follows
      // yields every YIELD_MS, and a share waits for it only when nothing is stale.
      this.lastMs = computeMs;
      // What each debate's card says: rated, or why not.
      await this.repository.saveRatings(ratings, stored, readAt);
      // The judges' record (made of the same verdicts and readers) and the controlled boards:
      // left to the next recompute when one is waiting already, unless they are stale.
      const fresh =
        this.controlledAt !== null &&
        performance.now() - this.controlledAt < CONTROLLED_STALENESS_MS;
      const deferred = this.queued !== null && fresh;
      if (!deferred) await this.judges.recompute();
      const controlledMs = deferred ? null : await saveBoards(true);
      if (controlledMs !== null) this.controlledAt = performance.now();
      this.logger.log(
        `Leaderboard recomputed from ${debates.length} public debates in ${computeMs} ms` +
          (controlledMs === null
            ? " (the judges' record and the controlled boards left to the next recompute)"
            : ` (controlled for length: ${controlledMs} ms)`) +
          (unreadable > 0 ? ` (${unreadable} stored debates could not be read)` : ''),
      );
    } catch (error) {
      this.logger.error(`Leaderboard recompute failed: ${String(error)}`);
    } finally {
      if (!this.queued) this.running = null;
    }
  }
}
