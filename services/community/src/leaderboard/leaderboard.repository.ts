import {
  DebateRating,
  type LeaderboardBoard,
  type LeaderboardSubject,
  modelKinds,
  speakerNames,
  StanceAfter,
  StanceBefore,
} from '@debate/contracts';
import { MONGO_CONNECTION } from '@debate/nest';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Connection, Model } from 'mongoose';
import { z } from 'zod';
import { mindsChangedOf, relativeWinnerOf } from '../minds/minds-changed.js';
import { SidesWordsCounter } from '../public-debates/sides-words.js';
import {
  boardId,
  type LeaderboardDocument,
  leaderboardModel,
} from '../schemas/leaderboard.schema.js';
import { storeUnlessReadLater } from '../schemas/computed.js';
import { type PublicDebateDocument, publicDebateModel } from '../schemas/public-debate.schema.js';
import type { RatedDebate } from './leaderboard-boards.js';

/** What a recompute reads of each public debate, and no more. */
const RATED_FIELDS = [
  'userId',
  'sharedAt',
  'rematchOf',
  'minds',
  'verdict.winner',
  'rating',
  ...['model1', 'model2'].flatMap((side) => [
    `${side}.stance`,
    `${side}.rhetoricStyle`,
    `${side}.writtenBy.kind`,
    `${side}.writtenBy.modelId`,
    `${side}.writtenBy.label`,
    `${side}.personalityHints`,
  ]),
  // Whose rounds a team made (its notes), for the speaker setups' board.
  'rounds.speaker',
  'rounds.team.steps',
];

const ratedSpeaker = z.object({
  stance: z.number(),
  rhetoricStyle: z.string().min(1),
  writtenBy: z
    .object({
      kind: z.enum(modelKinds),
      modelId: z.string().min(1),
      label: z.string().min(1),
    })
    .nullable()
    .default(null),
  personalityHints: z.boolean().nullable().default(null),
});

/** A stored public debate as the leaderboard reads it, checked: the store is a boundary too. */
const storedDebate = z.object({
  _id: z.string().min(1),
  userId: z.string().min(1),
  sharedAt: z.date(),
  rematchOf: z.string().nullable().default(null),
  minds: z
    .partialRecord(StanceBefore, z.partialRecord(StanceAfter, z.number().int().nonnegative()))
    .nullable()
    .default(null),
  verdict: z
    .object({ winner: z.enum(speakerNames).nullable() })
    .nullable()
    .default(null),
  rating: DebateRating.nullable().default(null),
  model1: ratedSpeaker,
  model2: ratedSpeaker,
  rounds: z
    .array(
      z.object({
        speaker: z.string(),
        team: z.object({ steps: z.number() }).nullable().default(null),
      }),
    )
    .default([]),
});

/** A stored board, as the contract's board (its times as ISO strings). */
function toBoard(document: LeaderboardDocument): LeaderboardBoard {
  return {
    subject: document.subject,
    pairsOnly: document.pairsOnly,
    controlled: document.controlled ?? false,
    rows: document.rows,
    apart: document.apart,
    debates: document.debates,
    apartDebates: document.apartDebates,
    notRated: document.notRated,
    bootstrapRounds: document.bootstrapRounds,
    computedAt: document.computedAt.toISOString(),
    computeMs: document.computeMs,
  };
}

/**
 * The leaderboard's store: reads the public, judged debates (`public_debates`, the public
 * debates' collection, read only) and keeps the boards computed from them in `leaderboards`.
 */
@Injectable()
export class LeaderboardRepository implements OnApplicationBootstrap {
  private readonly debates: Model<PublicDebateDocument>;
  private readonly boards: Model<LeaderboardDocument>;
  constructor(
    @Inject(MONGO_CONNECTION) connection: Connection,
    private readonly sidesWords: SidesWordsCounter,
  ) {
    this.debates = publicDebateModel(connection);
    this.boards = leaderboardModel(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boards.init();
  }

  /**
   * Every public debate, as the fit reads it, and the rating each one was last stored with; a
   * document that does not read as one (it cannot, written through the contracts) is left out,
   * and counted.
   */
  async ratedDebates(): Promise<{
    debates: RatedDebate[];
    stored: Map<string, DebateRating | null>;
    unreadable: number;
  }> {
    const found = await this.debates
      .find({ removedAt: null }, Object.fromEntries(RATED_FIELDS.map((field) => [field, 1])))
      .lean<unknown[]>()
      .exec();
    const parsed = found.flatMap((document) => {
      const read = storedDebate.safeParse(document);
      return read.success ? [read.data] : [];
    });
    this.sidesWords.forgetAllBut(parsed);
    const counted = await this.sidesWords.of(parsed);
    const debates: RatedDebate[] = [];
    const stored = new Map<string, DebateRating | null>();
    for (const {
      _id,
      userId,
      sharedAt,
      rematchOf,
      minds,
      verdict,
      model1,
      model2,
      rounds,
      rating,
    } of parsed) {
      stored.set(_id, rating);
      const modeOf = (speaker: (typeof speakerNames)[number]) =>
        rounds.some((round) => round.speaker === speaker && round.team !== null)
          ? ('team' as const)
          : ('single' as const);
      const words = counted.get(_id);
      debates.push({
        id: _id,
        authorId: userId,
        sharedAt: sharedAt.getTime(),
        rematchOf,
        model1: { ...model1, speakerMode: modeOf('First Speaker'), words: words?.first ?? 0 },
        model2: { ...model2, speakerMode: modeOf('Second Speaker'), words: words?.second ?? 0 },
        judged: verdict !== null,
        winner: verdict?.winner ?? null,
        audience: mindsChangedOf(minds ?? undefined).shares?.winner ?? null,
        audienceRelative: relativeWinnerOf(minds ?? undefined),
      });
    }
    return { debates, stored, unreadable: found.length - debates.length };
  }

  /**
   * Stores each debate's rating, as read at `readAt`, where it differs from the one stored;
   * not over one a later read stored (another replica's recompute). A debate whose rating did
   * not change is not written: a replica's write from an earlier read may then stay until the
   * next recompute (the next share, unshare or decisive vote, or a start).
   */
  async saveRatings(
    ratings: ReadonlyMap<string, DebateRating>,
    stored: ReadonlyMap<string, DebateRating | null>,
    readAt: Date,
  ): Promise<void> {
    const changed = [...ratings].filter(([id, rating]) => stored.get(id) !== rating);
    if (changed.length === 0) return;
    await this.debates.bulkWrite(
      changed.map(([_id, rating]) => ({
        updateOne: {
          filter: {
            _id,
            $or: [{ ratedAt: { $lt: readAt } }, { ratedAt: null }],
          },
          update: { $set: { rating, ratedAt: readAt } },
        },
      })),
      { ordered: false },
    );
  }

  /**
   * How many of the user's public debates against a model the boards rate (their stored
   * rating, as the last recompute left it).
   */
  ratedPersonDebates(userId: string): Promise<number> {
    return this.debates
      .countDocuments({
        userId,
        removedAt: null,
        rating: 'RATED',
        $or: [{ 'model1.writtenBy.kind': 'person' }, { 'model2.writtenBy.kind': 'person' }],
      })
      .exec();
  }

  /** When a debate's public copy was shared and taken down; null: it has none. */
  publicState(
    debateId: string,
  ): Promise<Pick<PublicDebateDocument, 'sharedAt' | 'removedAt'> | null> {
    return this.debates
      .findOne({ _id: debateId }, { sharedAt: 1, removedAt: 1 })
      .lean<Pick<PublicDebateDocument, 'sharedAt' | 'removedAt'>>()
      .exec();
  }

  /** The stored board of `subject`; null before the first recompute. */
  async board(
    subject: LeaderboardSubject,
    pairsOnly: boolean,
    controlled: boolean,
  ): Promise<LeaderboardBoard | null> {
    const found = await this.boards
      .findOne({ _id: boardId(subject, pairsOnly, controlled) }, { readAt: 0 })
      .lean<LeaderboardDocument>()
      .exec();
    return found ? toBoard(found) : null;
  }

  /**
   * Stores `board`, computed from the debates as they were read at `readAt`, unless a board
   * read later is there already (another replica's recompute finished after this one began).
   */
  async save(board: LeaderboardBoard, readAt: Date): Promise<void> {
    await storeUnlessReadLater(
      this.boards,
      boardId(board.subject, board.pairsOnly, board.controlled),
      board,
      readAt,
    );
  }
}
