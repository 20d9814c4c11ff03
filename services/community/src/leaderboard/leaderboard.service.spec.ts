import type { DebateRating, LeaderboardBoard } from '@debate/contracts';
import { createLogger, PinoLoggerService } from '@debate/nest';
import { describe, expect, it } from '@jest/globals';
import { boardKeys, type RatedDebate, type RatedSpeaker } from './leaderboard-boards.js';
import type { LeaderboardRepository } from './leaderboard.repository.js';
import { LeaderboardService } from './leaderboard.service.js';
import type { PeopleListingsRepository } from './people-listings.repository.js';
import type { JudgesService } from '../judges/judges.service.js';

/** No one listed on the People board. */
const noListings = { all: async () => new Map() } as unknown as PeopleListingsRepository;

/** The judges' record, recomputed with the boards: counted. */
let judgesRecomputed = 0;
const judges = {
  recompute: async () => {
    judgesRecomputed += 1;
  },
} as unknown as JudgesService;

/** A board's key, as the saves are recorded here. */
const keyOf = ({
  subject,
  pairsOnly,
  controlled,
}: Pick<LeaderboardBoard, 'subject' | 'pairsOnly' | 'controlled'>) =>
  `${subject}:${pairsOnly}${controlled ? ':controlled' : ''}`;

/**
 * The store's edge of the service: each read of the public debates waits until the test lets
 * it go, and is counted; saved boards are kept.
 */
function heldStore() {
  const reads: Array<() => void> = [];
  const saved: string[] = [];
  const repository = {
    ratedDebates: () =>
      new Promise<{ debates: []; stored: Map<string, null>; unreadable: number }>((resolve) => {
        reads.push(() => resolve({ debates: [], stored: new Map(), unreadable: 0 }));
      }),
    save: async (board: LeaderboardBoard) => {
      saved.push(keyOf(board));
    },
    saveRatings: async () => undefined,
  } as unknown as LeaderboardRepository;
  /** Lets the next read finish, once it has begun. */
  const release = async () => {
    for (let i = 0; i < 300 && reads.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    reads.shift()?.();
  };
  return { repository, reads, saved, release };
}

describe(LeaderboardService.name, () => {
  const logger = new PinoLoggerService(createLogger('test', 'silent'));

  it('recomputes one at a time, and once more after changes made during one', async () => {
    const store = heldStore();
    const sut = new LeaderboardService(store.repository, noListings, judges, logger, 4);
    let readsBegun = 0;
    const counted = store.repository.ratedDebates.bind(store.repository);
    store.repository.ratedDebates = () => {
      readsBegun += 1;
      return counted();
    };

    const first = sut.changed();
    // Three changes while it runs: one more recompute for all of them.
    const during = [sut.changed(), sut.changed(), sut.changed()];
    expect(during[1]).toBe(during[0]);
    expect(readsBegun).toBe(1);

    let secondDone = false;
    void during[0]?.then(() => (secondDone = true));
    await store.release();
    await first;
    expect(store.saved).toEqual(boardKeys.map(keyOf));
    // The first is done; the one after it has begun reading, and is not done.
    // After a pause (at least 200 ms).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readsBegun).toBe(1);
    for (let i = 0; i < 200 && readsBegun < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(readsBegun).toBe(2);
    expect(secondDone).toBe(false);

    await store.release();
    await Promise.all(during);
    expect(readsBegun).toBe(2);
    expect(store.saved).toHaveLength(2 * boardKeys.length);

    // Idle again: the next change starts one at once.
    const later = sut.changed();
    await store.release();
    await later;
    expect(readsBegun).toBe(3);
  });

  it('leaves the controlled boards to the next recompute when another change is already waiting', async () => {
    const store = heldStore();
    const sut = new LeaderboardService(store.repository, noListings, judges, logger, 4);
    const asRated = boardKeys.filter((key) => !key.controlled).map(keyOf);
    const controlled = boardKeys.filter((key) => key.controlled).map(keyOf);
    // The first recompute stores every board, the controlled ones too.
    const first = sut.changed();
    await store.release();
    await first;
    expect(store.saved).toEqual([...asRated, ...controlled]);

    // A change arrives while the next one reads: that one stores the boards as rated only.
    store.saved.length = 0;
    const second = sut.changed();
    const waiting = sut.changed();
    await store.release();
    await second;
    expect(store.saved).toEqual(asRated);
    // The one after it, with nothing waiting, stores them all.
    await store.release();
    await waiting;
    expect(store.saved).toEqual([...asRated, ...asRated, ...controlled]);
  });

  it('never rejects: a failed recompute is logged, and the next change tries again', async () => {
    let calls = 0;
    const repository = {
      ratedDebates: async () => {
        calls += 1;
        if (calls === 1) throw new Error('the store is down');
        return { debates: [], stored: new Map(), unreadable: 0 };
      },
      save: async () => undefined,
      saveRatings: async () => undefined,
    } as unknown as LeaderboardRepository;
    const sut = new LeaderboardService(repository, noListings, judges, logger, 4);
    await expect(sut.changed()).resolves.toBeUndefined();
    await expect(sut.changed()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('rates the debates once per recompute, for every board and for the cards', async () => {
    // ratingsOf (a sort of every public debate) is what reads a debate's author, for the
    // daily limit: each read here is one more pass of it.
    let authorReads = 0;
    const speaker = (modelId: string, stance: number, rhetoricStyle: string): RatedSpeaker => ({
      stance,
      rhetoricStyle,
      writtenBy: { kind: 'model', modelId, label: modelId },
      speakerMode: 'single',
      personalityHints: false,
      words: 300,
    });
    const debate: RatedDebate = {
      id: 'd1',
      get authorId() {
        authorReads += 1;
        return 'ada';
      },
      sharedAt: Date.parse('2025-06-01T12:00:00.000Z'),
      rematchOf: null,
      model1: speaker('model-a', 0.6, 'formal'),
      model2: speaker('model-b', -0.6, 'casual'),
      judged: true,
      winner: 'First Speaker',
      audience: null,
      audienceRelative: null,
    };
    const boards: LeaderboardBoard[] = [];
    const cards: Array<ReadonlyMap<string, DebateRating>> = [];
    const repository = {
      ratedDebates: async () => ({ debates: [debate], stored: new Map(), unreadable: 0 }),
      save: async (board: LeaderboardBoard) => {
        boards.push(board);
      },
      saveRatings: async (ratings: ReadonlyMap<string, DebateRating>) => {
        cards.push(ratings);
      },
    } as unknown as LeaderboardRepository;
    const sut = new LeaderboardService(repository, noListings, judges, logger, 4);
    const judgesBefore = judgesRecomputed;
    await sut.changed();
    // The judges' record with the boards, once.
    expect(judgesRecomputed - judgesBefore).toBe(1);
    expect(
      boards.map((board) => [board.subject, board.pairsOnly, board.controlled, board.debates]),
    ).toEqual(
      // (The People board counts debates against a person only: none here.) Every board as
      // rated, then every board controlled.
      boardKeys.map(({ subject, pairsOnly, controlled }) => [
        subject,
        pairsOnly,
        controlled,
        pairsOnly || subject === 'PEOPLE' ? 0 : 1,
      ]),
    );
    expect(boards.map((board) => board.controlled)).toEqual([
      ...new Array<boolean>(7).fill(false),
      ...new Array<boolean>(7).fill(true),
    ]);
    expect(cards).toEqual([new Map([['d1', 'RATED']])]);
    expect(authorReads).toBe(1);
  });
});
