import {
  communityDebateContracts,
  type LeaderboardBoard,
  leaderboardContracts,
  type LeaderboardSubject,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  PERSON_MODEL_ID,
  type SharedDebate,
  type Verdict,
} from '@debate/contracts';
import {
  eventually,
  offlineTurn,
  offlineVerdict,
  type ServiceUnderTest,
  startServiceUnderTest,
} from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { debateOf, publicCopy, share, unshare } from './fixtures.js';

type Speaker = SharedDebate['model1'];

/** A speaker written by `modelId` (the offline speaker for 'offline'), with its style and stance. */
function speaker(
  modelId: string,
  rhetoricStyle: Speaker['rhetoricStyle'],
  stance: number,
): Speaker {
  const offline = modelId === OFFLINE_MODEL_ID;
  return {
    name: modelId,
    stance,
    rhetoricStyle,
    writtenBy: offlineTurn({
      kind: offline ? 'offline' : 'model',
      modelId,
      label: offline ? OFFLINE_MODEL_LABEL : `Model ${modelId}`,
      turns: 3,
    }),
    personalityHints: false,
  };
}

/** Who the judges named: the first speaker, the second, or a tie. */
const verdicts: Record<'first' | 'second' | 'tie', Verdict> = {
  first: offlineVerdict(8, 5),
  second: offlineVerdict(4, 7),
  tie: offlineVerdict(6, 6),
};

/**
 * A judged, shared debate: `first` (For, formal) against `second` (Against, casual), won as
 * `winner` says; `fields` override.
 */
function judged(
  id: string,
  first: string,
  second: string,
  winner: keyof typeof verdicts,
  fields: Partial<SharedDebate> = {},
): SharedDebate {
  return debateOf(id, {
    sharedAt: new Date().toISOString(),
    model1: speaker(first, 'formal', 0.6),
    model2: speaker(second, 'casual', -0.6),
    verdict: verdicts[winner],
    ...fields,
  });
}

/** The daily limit the service is started with here (per author, pairing and UTC day). */
const DAILY_LIMIT = 2;

describe('the leaderboard', () => {
  let community: ServiceUnderTest;

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) =>
        CommunityServiceModule.register({ ...runtime, leaderboardDailyLimit: DAILY_LIMIT }),
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  const board = (subject: LeaderboardSubject, pairsOnly = false, controlled = false) =>
    community.client.request(leaderboardContracts.get, { subject, pairsOnly, controlled });

  /** The board once its recompute has read `debates` rated debates (apart ones included). */
  const boardOf = (
    subject: LeaderboardSubject,
    done: (board: LeaderboardBoard) => boolean,
    pairsOnly = false,
    controlled = false,
  ) => eventually(() => board(subject, pairsOnly, controlled), done, 10_000);

  const ids = (rows: LeaderboardBoard['rows']) => rows.map((row) => row.id);

  it('answers an empty board, computed at start, before any judged debate is shared', async () => {
    const empty = await boardOf('MODEL', (found) => found.computedAt !== null);
    expect(empty).toMatchObject({
      subject: 'MODEL',
      pairsOnly: false,
      rows: [],
      apart: [],
      debates: 0,
      apartDebates: 0,
      bootstrapRounds: 500,
    });
  });

  it('rates the models from shared, judged debates, recomputed in the background', async () => {
    // gpt-4o beats llama three times and ties once; llama beats mistral twice.
    await share(community, judged('l1', 'gpt-4o', 'llama', 'first'));
    await share(community, judged('l2', 'llama', 'gpt-4o', 'second'));
    await share(community, judged('l3', 'gpt-4o', 'llama', 'first'));
    await share(community, judged('l4', 'gpt-4o', 'llama', 'tie'));
    await share(community, judged('l5', 'llama', 'mistral', 'first'));
    await share(community, judged('l6', 'mistral', 'llama', 'second'));
    // Not judged: not on the board.
    await share(community, judged('l7', 'mistral', 'gpt-4o', 'first', { verdict: null }));
    // The same model on both sides tells nothing of it.
    await share(community, judged('l8', 'gpt-4o', 'gpt-4o', 'first'));

    // Once the recompute has read all eight: the six rated, the one with the same model on both
    // sides counted apart (a recompute between the sixth and the eighth would see six alone).
    const models = await boardOf(
      'MODEL',
      (found) => found.debates === 6 && found.notRated.sameSubject === 1,
    );
    expect(ids(models.rows)).toEqual(['gpt-4o', 'llama', 'mistral']);
    expect(models.rows.map((row) => [row.label, row.debates, row.pairs])).toEqual([
      ['Model gpt-4o', 4, 0],
      ['Model llama', 6, 0],
      ['Model mistral', 2, 0],
    ]);
    for (const row of models.rows) {
      expect(row.low).toBeLessThanOrEqual(row.rating);
      expect(row.high).toBeGreaterThanOrEqual(row.rating);
      expect(row.audience).toBeNull();
    }
    expect(models.notRated).toEqual({
      sameSubject: 1,
      notRecorded: 0,
      personalityHints: 0,
      dailyLimit: 0,
    });
    // Each public copy says whether it is rated, or why not.
    expect(
      await eventually(
        () => publicCopy(community, 'l7'),
        (copy) => !!copy?.rating,
      ),
    ).toMatchObject({
      rating: 'NOT_JUDGED',
    });
    expect((await publicCopy(community, 'l1'))?.rating).toBe('RATED');
    expect(models.computeMs).toEqual(expect.any(Number));

    // Styles: every debate here is formal (For) against casual (Against).
    const styles = await boardOf('STYLE', (found) => found.debates === 7);
    expect(styles.rows.map((row) => [row.id, row.label, row.debates])).toEqual([
      ['formal', 'Formal', 7],
      ['casual', 'Casual', 7],
    ]);
  });

  it('recomputes when a rated debate is taken down', async () => {
    const before = await board('MODEL');
    await unshare(community, 'l5');
    const after = await boardOf('MODEL', (found) => found.debates === 5);
    expect(after.computedAt).not.toBe(before.computedAt);
    expect(after.rows.find((row) => row.id === 'mistral')?.debates).toBe(1);
  });

  it('rates the debates an offline speaker wrote apart, never mixed with the others', async () => {
    await share(community, judged('o1', OFFLINE_MODEL_ID, 'gpt-4o', 'first'));
    await share(community, judged('o2', 'gpt-4o', OFFLINE_MODEL_ID, 'second'));
    await share(community, judged('o3', OFFLINE_MODEL_ID, 'llama', 'first'));
    await share(community, judged('o4', OFFLINE_MODEL_ID, OFFLINE_MODEL_ID, 'first'));
    // Recomputed once all four are in: o4 (the offline speaker against itself) counts as the
    // same subject, not apart, so the apart count alone can be reached before it is.
    const models = await boardOf(
      'MODEL',
      (found) => found.apartDebates === 3 && found.notRated.sameSubject === 2,
    );
    expect(models.apart.map((row) => [row.id, row.label, row.debates])).toEqual([
      [OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL, 3],
      ['llama', 'Model llama', 1],
      ['gpt-4o', 'Model gpt-4o', 2],
    ]);
    // The model-written board is as it was: the offline speaker is not on it.
    expect(ids(models.rows)).toEqual(['gpt-4o', 'llama', 'mistral']);
    expect(models.debates).toBe(5);
    expect(models.notRated.sameSubject).toBe(2);
    // Styles too: the offline speaker's formal against casual, apart.
    const styles = await boardOf('STYLE', (found) => found.apartDebates === 4);
    expect(styles.apart.map((row) => [row.id, row.debates])).toEqual([
      ['formal', 4],
      ['casual', 4],
    ]);
  });

  it('counts only completed side-swapped pairs with pairsOnly', async () => {
    // p2 is p1's rematch: a completed pair. p3 is the rematch of a debate never shared.
    await share(community, judged('p1', 'claude', 'gemini', 'first'));
    await share(community, judged('p2', 'gemini', 'claude', 'first', { rematchOf: 'p1' }));
    await share(
      community,
      judged('p3', 'gemini', 'claude', 'first', { rematchOf: 'never-shared' }),
    );

    const all = await boardOf('MODEL', (found) => found.debates === 8);
    expect(all.rows.find((row) => row.id === 'claude')).toMatchObject({ debates: 3, pairs: 1 });
    const pairs = await boardOf('MODEL', (found) => found.debates === 2, true);
    expect(pairs.pairsOnly).toBe(true);
    expect(pairs.rows.map((row) => [row.id, row.debates, row.pairs])).toEqual([
      ['claude', 2, 1],
      ['gemini', 2, 1],
    ]);
    expect(pairs.apart).toEqual([]);

    // Its original taken down: the pair is no longer complete.
    await unshare(community, 'p1');
    const broken = await boardOf('MODEL', (found) => found.debates === 0, true);
    expect(broken.rows).toEqual([]);
  });

  it("adds the audience's column from the minds-changed winners", async () => {
    // a1: five readers Against before, For after: the For side (claude) gained.
    await share(community, judged('a1', 'claude', 'gemini', 'second'));
    for (const reader of ['r1', 'r2', 'r3', 'r4', 'r5']) {
      await community.client.request(communityDebateContracts.standBefore, {
        readerId: reader,
        debateId: 'a1',
        stance: 'AGAINST',
      });
      await community.client.request(communityDebateContracts.vote, {
        voterId: reader,
        debateId: 'a1',
        kind: 'FOR',
      });
    }
    // The fifth reader's vote made the room's winner: the vote itself asks for a recompute.
    const models = await boardOf('MODEL', (found) =>
      found.rows.some((row) => row.audience !== null),
    );
    const audience = Object.fromEntries(models.rows.map((row) => [row.id, row.audience]));
    expect(audience['claude']).toMatchObject({ debates: 1 });
    expect(audience['gemini']).toMatchObject({ debates: 1 });
    expect(audience['claude']?.rating).toBeGreaterThan(audience['gemini']?.rating ?? Infinity);
    // Models without a debate the audience decided have no audience rating.
    await share(community, judged('a2', 'gpt-4o', 'llama', 'first'));
    const later = await boardOf('MODEL', (found) => found.rows.some((row) => row.id === 'llama'));
    expect(later.rows.find((row) => row.id === 'gpt-4o')?.audience).toBeNull();
  });

  it('does not rate a debate with personality hints, and its copy says so', async () => {
    await share(
      community,
      judged('h1', 'claude', 'mistral', 'first', {
        model2: { ...speaker('mistral', 'casual', -0.6), personalityHints: true },
      }),
    );
    const copy = await eventually(
      () => publicCopy(community, 'h1'),
      (found) => found?.rating !== null,
    );
    expect(copy?.rating).toBe('PERSONALITY_HINTS');
    // Its recompute stored the boards before the copies' ratings.
    const models = await board('MODEL');
    expect(models.notRated.personalityHints).toBe(1);
    expect(models.rows.find((row) => row.id === 'mistral')?.debates).toBe(1);
  });

  it("rates only the first debates of an author's pairing each day, and the others' copies say why", async () => {
    // One author shares the same pairing four times on one day, out of order.
    const at = (minute: number) => `2026-01-05T10:0${minute}:00.000Z`;
    for (const [id, minute] of [
      ['f3', 3],
      ['f1', 1],
      ['f4', 4],
      ['f2', 2],
    ] as const) {
      await share(
        community,
        judged(id, 'model-x', 'model-y', 'first', { userId: 'farmer', sharedAt: at(minute) }),
      );
    }
    const models = await boardOf('MODEL', (found) => found.notRated.dailyLimit === 2);
    expect(models.rows.find((row) => row.id === 'model-x')?.debates).toBe(DAILY_LIMIT);
    const ratings = await eventually(
      () => Promise.all(['f1', 'f2', 'f3', 'f4'].map((id) => publicCopy(community, id))),
      (copies) => copies.every((copy) => copy?.rating),
    );
    expect(ratings.map((copy) => copy?.rating)).toEqual([
      'RATED',
      'RATED',
      'DAILY_LIMIT',
      'DAILY_LIMIT',
    ]);

    // The first taken down, the third is among the first two of the day: it is rated now.
    await unshare(community, 'f1');
    const third = await eventually(
      () => publicCopy(community, 'f3'),
      (copy) => copy?.rating === 'RATED',
    );
    expect(third?.rating).toBe('RATED');
  });

  it('lists a person on the People board, showing them once three of their debates are rated', async () => {
    const listing = (userId: string) =>
      community.client.request(leaderboardContracts.getListing, { userId });
    expect(await listing('grace')).toEqual({ listed: false, name: null, ratedDebates: 0 });
    expect(
      await community.client.request(leaderboardContracts.setListing, {
        userId: 'grace',
        listed: true,
        name: 'Grace H.',
      }),
    ).toEqual({ listed: true, name: 'Grace H.', ratedDebates: 0 });
    expect(await listing('grace')).toMatchObject({ listed: true, name: 'Grace H.' });

    // Grace debates three models (her side written by her), and wins each.
    const grace = {
      ...speaker('gpt-4o', 'formal', 0.6),
      name: PERSON_MODEL_ID,
      writtenBy: offlineTurn({
        kind: 'person',
        modelId: PERSON_MODEL_ID,
        label: 'Grace Hopper',
        turns: 3,
      }),
    };
    // (Each against another model: the daily limit here is two a pairing.)
    for (const [id, model] of [
      ['p1', 'gpt-4o'],
      ['p2', 'llama'],
      ['p3', 'mistral'],
    ] as const) {
      await share(
        community,
        judged(id, 'gpt-4o', model, 'first', { userId: 'grace', model1: grace }),
      );
      // Two rated: listed, and not shown yet.
      if (id === 'p2') {
        const early = await boardOf('PEOPLE', (found) => found.debates === 2);
        expect(early.rows.filter((row) => row.kind === 'PERSON')).toEqual([]);
        expect(early.rows.find((row) => row.kind === 'PEOPLE')?.debates).toBe(2);
      }
    }
    const people = await boardOf('PEOPLE', (found) => found.debates === 3);
    const shown = people.rows.find((row) => row.kind === 'PERSON');
    expect(shown).toMatchObject({ label: 'Grace H.', debates: 3 });
    expect(shown?.id).toMatch(/^person:[0-9a-f]{12}$/);
    expect(people.rows.map((row) => row.id)).toEqual(
      expect.arrayContaining(['gpt-4o', 'llama', 'mistral', 'people', shown?.id]),
    );
    // Her debates are on no other board, and their cards say they are rated.
    expect((await board('MODEL')).rows.find((row) => row.label.includes('Grace'))).toBeUndefined();
    expect((await publicCopy(community, 'p1'))?.rating).toBe('RATED');
    // (The cards are saved after the boards.)
    expect(
      await eventually(
        () => listing('grace'),
        (found) => found.ratedDebates === 3,
      ),
    ).toEqual({ listed: true, name: 'Grace H.', ratedDebates: 3 });
    // Asked for pairs only, the People board answers its one board.
    expect(await board('PEOPLE', true)).toMatchObject({ pairsOnly: false, debates: 3 });

    // Off the board: her row goes, the People row keeps her debates.
    expect(
      await community.client.request(leaderboardContracts.setListing, {
        userId: 'grace',
        listed: false,
      }),
    ).toEqual({ listed: false, name: null, ratedDebates: 3 });
    const unlisted = await boardOf('PEOPLE', (found) =>
      found.rows.every((row) => row.kind !== 'PERSON'),
    );
    expect(unlisted.rows.find((row) => row.kind === 'PEOPLE')?.debates).toBe(3);
    expect(JSON.stringify(unlisted)).not.toContain('Grace');
  });

  it('stores every board controlled for length beside it, and answers it when asked', async () => {
    // 'verbose' writes a hundred times the words of 'terse' (each round's text), and wins both
    // of their debates, from either side.
    const worded = (debate: SharedDebate, verboseSide: Speaker['name']) => ({
      ...debate,
      rounds: debate.rounds.map((round) => ({
        ...round,
        text: round.speaker === verboseSide ? 'word '.repeat(300).trim() : 'Three short words',
      })),
    });
    await share(community, worded(judged('w1', 'verbose', 'terse', 'first'), 'First Speaker'));
    await share(community, worded(judged('w2', 'terse', 'verbose', 'second'), 'Second Speaker'));
    const has = (found: LeaderboardBoard) => found.rows.some((row) => row.id === 'verbose');
    const rated = await boardOf('MODEL', has);
    const controlled = await boardOf('MODEL', has, false, true);
    expect(rated.controlled).toBe(false);
    expect(controlled.controlled).toBe(true);
    expect(controlled.debates).toBe(rated.debates);
    expect(ids(controlled.rows).sort()).toEqual(ids(rated.rows).sort());
    const rating = (found: LeaderboardBoard, id: string) =>
      found.rows.find((row) => row.id === id)?.rating ?? NaN;
    // Its wins are partly its length's: controlled, it is rated lower, its opponent higher.
    expect(rating(controlled, 'verbose')).toBeLessThan(rating(rated, 'verbose') - 10);
    expect(rating(controlled, 'terse')).toBeGreaterThan(rating(rated, 'terse') + 10);
    // The debates whose sides wrote as much as each other: the length takes nothing from them.
    expect(rating(controlled, 'mistral')).toBeCloseTo(rating(rated, 'mistral'), 0);

    // Every board has its controlled one, the People board too; the boards as rated are kept.
    for (const [subject, pairsOnly] of [
      ['STYLE', false],
      ['SETUP', true],
      ['PEOPLE', false],
    ] as const) {
      expect(await board(subject, pairsOnly, true)).toMatchObject({
        subject,
        pairsOnly,
        controlled: true,
        computedAt: expect.any(String),
      });
      expect((await board(subject, pairsOnly)).controlled).toBe(false);
    }
  });
});
