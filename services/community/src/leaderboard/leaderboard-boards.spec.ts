import { type DebateRating, OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from '@debate/contracts';
import { describe, expect, it } from '@jest/globals';
import { seededRandom } from './bradley-terry.js';
import { DEFAULT_LEADERBOARD_DAILY_LIMIT } from '../community.config.js';
import {
  boardKeys,
  computeBoard,
  MIN_PERSON_DEBATES,
  personSubjectId,
  ratingsOf,
  type RatedDebate,
  type RatedSpeaker,
} from './leaderboard-boards.js';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const fast = { rounds: 50 };

/** A speaker written by `modelId` ('offline': the offline speaker), For or Against. */
function speaker(modelId: string, fields: Partial<RatedSpeaker> = {}): RatedSpeaker {
  const offline = modelId === OFFLINE_MODEL_ID;
  return {
    stance: 0.6,
    rhetoricStyle: 'formal',
    writtenBy: {
      kind: offline ? 'offline' : 'model',
      modelId,
      label: offline ? OFFLINE_MODEL_LABEL : modelId.toUpperCase(),
    },
    speakerMode: 'single',
    personalityHints: false,
    words: 300,
    ...fields,
  };
}

let ids = 0;
/** A judged debate: `first` (For, formal) against `second` (Against, casual), each its own author's. */
function debate(
  first: string,
  second: string,
  winner: RatedDebate['winner'],
  fields: Partial<RatedDebate> = {},
): RatedDebate {
  ids += 1;
  return {
    id: `d${String(ids).padStart(5, '0')}`,
    authorId: `author-${ids}`,
    sharedAt: ids,
    rematchOf: null,
    model1: speaker(first),
    model2: speaker(second, { stance: -0.6, rhetoricStyle: 'casual' }),
    judged: true,
    winner,
    audience: null,
    audienceRelative: null,
    ...fields,
  };
}

/** `count` debates between models of known ratings, sides and pairs drawn at random. */
function simulate(ratings: Record<string, number>, count: number, seed: number): RatedDebate[] {
  const random = seededRandom(seed);
  const models = Object.keys(ratings);
  return Array.from({ length: count }, () => {
    const a = Math.floor(random() * models.length);
    const b = (a + 1 + Math.floor(random() * (models.length - 1))) % models.length;
    const [first = '', second = ''] = [models[a], models[b]];
    const chance = 1 / (1 + 10 ** (((ratings[second] ?? 0) - (ratings[first] ?? 0)) / 400));
    return debate(first, second, random() < chance ? 'First Speaker' : 'Second Speaker');
  });
}

describe(computeBoard.name, () => {
  it('ranks models of known strengths in that order, with intervals that shrink as debates are added', async () => {
    const known = { 'model-c': 1000, 'model-a': 1300, 'model-d': 850, 'model-b': 1150 };
    const debates = simulate(known, 1_000, 5);
    const few = await computeBoard(debates.slice(0, 100), 'MODEL', false, NOW);
    const many = await computeBoard(debates, 'MODEL', false, NOW);
    expect(many.rows.map((row) => row.id)).toEqual(['model-a', 'model-b', 'model-c', 'model-d']);
    expect(many.debates).toBe(1_000);
    for (const row of many.rows) {
      const before = few.rows.find((other) => other.id === row.id);
      expect(row.high - row.low).toBeLessThan((before?.high ?? 0) - (before?.low ?? 0));
      expect(row.label).toBe(row.id.toUpperCase());
    }
    expect(many.rows.reduce((sum, row) => sum + row.debates, 0)).toBe(2_000);
  });

  it('rates debates with an offline speaker apart, and does not rate a debate against itself', async () => {
    const debates = [
      debate('gpt-4o', 'llama', 'First Speaker'),
      debate('llama', 'gpt-4o', null),
      debate('offline', 'gpt-4o', 'First Speaker'),
      debate('gpt-4o', 'offline', 'First Speaker'),
      // The same model on both sides: tells nothing of it.
      debate('gpt-4o', 'gpt-4o', 'First Speaker'),
      debate('offline', 'offline', 'Second Speaker'),
      // Saved before provenance was kept: what wrote it is not known.
      debate('gpt-4o', 'llama', 'First Speaker', {
        model2: { ...speaker('llama'), writtenBy: null },
      }),
    ];
    const board = await computeBoard(debates, 'MODEL', false, NOW, fast);
    expect(board.rows.map((row) => [row.id, row.debates])).toEqual([
      ['gpt-4o', 2],
      ['llama', 2],
    ]);
    expect(board.apart.map((row) => [row.id, row.label, row.debates])).toEqual([
      ['gpt-4o', 'GPT-4O', 2],
      [OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL, 2],
    ]);
    expect(board).toMatchObject({
      debates: 2,
      apartDebates: 2,
      notRated: { sameSubject: 2, notRecorded: 1, personalityHints: 0, dailyLimit: 0 },
      bootstrapRounds: 50,
      computedAt: NOW.toISOString(),
    });

    // Styles: the same model on both sides still compares two styles; the offline speaker's
    // debates apart, as it wrote them.
    const styles = await computeBoard(debates, 'STYLE', false, NOW, fast);
    expect(styles.rows.map((row) => [row.id, row.label, row.debates])).toEqual([
      ['formal', 'Formal', 3],
      ['casual', 'Casual', 3],
    ]);
    expect(styles.apart.map((row) => [row.id, row.debates])).toEqual([
      ['formal', 3],
      ['casual', 3],
    ]);
    expect(styles.notRated).toEqual({
      sameSubject: 0,
      notRecorded: 1,
      personalityHints: 0,
      dailyLimit: 0,
    });
  });

  it('counts a tie as half a win to each side', async () => {
    const board = await computeBoard(
      [debate('model-a', 'model-b', null), debate('model-a', 'model-b', null)],
      'MODEL',
      false,
      NOW,
      fast,
    );
    const [first, second] = board.rows;
    expect(first?.rating).toBeCloseTo(second?.rating ?? NaN, 6);
  });

  it('counts only completed side-swapped pairs with pairsOnly, and each pair once per subject', async () => {
    const original = debate('gpt-4o', 'llama', 'First Speaker');
    const rematch = debate('llama', 'gpt-4o', 'Second Speaker', { rematchOf: original.id });
    const another = debate('gpt-4o', 'mistral', 'First Speaker');
    // A rematch whose original is not public: not a completed pair.
    const orphan = debate('mistral', 'llama', 'First Speaker', { rematchOf: 'gone' });
    const debates = [another, rematch, orphan, original];

    const all = await computeBoard(debates, 'MODEL', false, NOW, fast);
    expect(all.debates).toBe(4);
    expect(Object.fromEntries(all.rows.map((row) => [row.id, [row.debates, row.pairs]]))).toEqual({
      'gpt-4o': [3, 1],
      llama: [3, 1],
      mistral: [2, 0],
    });

    const pairs = await computeBoard(debates, 'MODEL', true, NOW, fast);
    expect(pairs.debates).toBe(2);
    expect(pairs.rows.map((row) => [row.id, row.debates, row.pairs])).toEqual([
      ['gpt-4o', 2, 1],
      ['llama', 2, 1],
    ]);
    expect(pairs.pairsOnly).toBe(true);
  });

  it('fits the audience’s minds-changed winners for the For side, where there are any', async () => {
    // model-a is For in the first two, Against in the third; the room favours it each time.
    const debates = [
      debate('model-a', 'model-b', 'Second Speaker', { audience: 'FOR' }),
      debate('model-a', 'model-b', 'Second Speaker', { audience: 'FOR' }),
      debate('model-b', 'model-a', 'First Speaker', { audience: 'AGAINST' }),
      debate('model-a', 'model-b', 'Second Speaker', { audience: 'TIE' }),
      debate('model-c', 'model-b', 'First Speaker'),
      // Equal stances: no For side, no audience result.
      debate('model-a', 'model-c', 'First Speaker', {
        audience: 'FOR',
        model2: speaker('model-c', { stance: 0.6 }),
      }),
    ];
    const board = await computeBoard(debates, 'MODEL', false, NOW, fast);
    const row = (id: string) => board.rows.find((found) => found.id === id);
    // The judges prefer model-b to model-a; the audience, model-a to model-b.
    expect(row('model-b')?.rating).toBeGreaterThan(row('model-a')?.rating ?? Infinity);
    expect(row('model-a')?.audience?.rating).toBeGreaterThan(
      row('model-b')?.audience?.rating ?? Infinity,
    );
    expect(row('model-a')?.audience?.debates).toBe(4);
    expect(row('model-b')?.audience?.debates).toBe(4);
    // model-c has no debate with an audience result.
    expect(row('model-c')?.audience).toBeNull();
  });

  it('controlled, rates the models with their length taken out, and the audience by gain relative to where the room started', async () => {
    // model-b writes twice as much as the others, and the judges favour the longer side: as
    // rated, it tops the board; controlled, model-a (the strongest) does.
    const known: Record<string, number> = { 'model-a': 1100, 'model-b': 1000, 'model-c': 900 };
    const words: Record<string, number> = { 'model-a': 900, 'model-b': 1800, 'model-c': 900 };
    const random = seededRandom(17);
    const models = Object.keys(known);
    const debates = Array.from({ length: 1_500 }, () => {
      const a = Math.floor(random() * 3);
      const b = (a + 1 + Math.floor(random() * 2)) % 3;
      const [first = '', second = ''] = [models[a], models[b]];
      const [w1, w2] = [first, second].map((id) =>
        Math.round((words[id] ?? 0) * (0.7 + 0.6 * random())),
      );
      const z = ((w1 ?? 0) - (w2 ?? 0)) / ((w1 ?? 0) + (w2 ?? 0));
      const logit = (Math.LN10 * ((known[first] ?? 0) - (known[second] ?? 0))) / 400 + 3 * z;
      return debate(
        first,
        second,
        random() < 1 / (1 + Math.exp(-logit)) ? 'First Speaker' : 'Second Speaker',
        {
          model1: speaker(first, { words: w1 ?? 0 }),
          model2: speaker(second, { stance: -0.6, rhetoricStyle: 'casual', words: w2 ?? 0 }),
        },
      );
    });
    const rated = await computeBoard(debates, 'MODEL', false, NOW, fast);
    const controlled = await computeBoard(debates, 'MODEL', false, NOW, {
      ...fast,
      controlled: true,
    });
    expect(rated.controlled).toBe(false);
    expect(controlled.controlled).toBe(true);
    expect(rated.rows[0]?.id).toBe('model-b');
    expect(controlled.rows.map((row) => row.id)).toEqual(['model-a', 'model-b', 'model-c']);
    expect(controlled.debates).toBe(1_500);

    // The room: For gained more points each time, Against more of its room to grow.
    const room = [
      debate('model-a', 'model-b', 'First Speaker', {
        audience: 'FOR',
        audienceRelative: 'AGAINST',
      }),
      debate('model-a', 'model-b', 'First Speaker', {
        audience: 'FOR',
        audienceRelative: 'AGAINST',
      }),
      debate('model-b', 'model-a', 'Second Speaker', {
        audience: 'FOR',
        audienceRelative: 'AGAINST',
      }),
    ];
    const audience = async (options: { controlled?: boolean }) => {
      const board = await computeBoard(room, 'MODEL', false, NOW, { ...fast, ...options });
      const row = (id: string) =>
        board.rows.find((found) => found.id === id)?.audience?.rating ?? 0;
      return row('model-a') - row('model-b');
    };
    // model-a was For twice: ahead by gain, behind by relative gain.
    expect(await audience({})).toBeGreaterThan(0);
    expect(await audience({ controlled: true })).toBeLessThan(0);
  });

  it('gives an empty board without judged debates', async () => {
    expect(await computeBoard([], 'STYLE', true, NOW)).toEqual({
      subject: 'STYLE',
      pairsOnly: true,
      controlled: false,
      rows: [],
      apart: [],
      debates: 0,
      apartDebates: 0,
      notRated: { sameSubject: 0, notRecorded: 0, personalityHints: 0, dailyLimit: 0 },
      bootstrapRounds: 500,
      computedAt: NOW.toISOString(),
      computeMs: null,
    });
  });

  it('rates each model as a team apart from itself alone (the speaker setups)', async () => {
    // The same model, as a team, wins its side-swapped pair against itself alone; another model
    // alone loses to both.
    const team = { speakerMode: 'team' as const };
    const debates: RatedDebate[] = [];
    for (let n = 0; n < 6; n += 1) {
      const original = debate('gpt', 'gpt', 'First Speaker', {
        model1: speaker('gpt', team),
      });
      debates.push(original);
      debates.push(
        debate('gpt', 'gpt', 'Second Speaker', {
          rematchOf: original.id,
          model2: speaker('gpt', { ...team, stance: -0.6, rhetoricStyle: 'casual' }),
        }),
      );
      debates.push(debate('gpt', 'llama', 'First Speaker'));
    }
    const setups = await computeBoard(debates, 'SETUP', false, NOW, fast);
    expect(setups.rows.map((row) => [row.id, row.label])).toEqual([
      ['gpt:team', 'GPT, team'],
      ['gpt:single', 'GPT, single'],
      ['llama:single', 'LLAMA, single'],
    ]);
    expect(setups.rows[0]?.pairs).toBe(6);
    // By model alone, a model against itself tells nothing: those debates are not rated.
    const models = await computeBoard(debates, 'MODEL', false, NOW, fast);
    expect(models.notRated.sameSubject).toBe(12);
    expect(models.rows.map((row) => row.id)).toEqual(['gpt', 'llama']);
  });

  it('moves a rating by one account’s farm of 50 debates of one pairing in a day no more than the daily limit allows', async () => {
    const known = { 'model-a': 1300, 'model-b': 1150, 'model-c': 1000, 'model-d': 850 };
    const others = simulate(known, 400, 11);
    // One account shares 50 debates in a day in which the weakest model beats the strongest.
    const day = Date.parse('2025-06-01T06:00:00.000Z');
    const farm = Array.from({ length: 50 }, (_, n) =>
      debate(
        n % 2 ? 'model-a' : 'model-d',
        n % 2 ? 'model-d' : 'model-a',
        n % 2 ? 'Second Speaker' : 'First Speaker',
        {
          authorId: 'farmer',
          sharedAt: day + n * 60_000,
        },
      ),
    );
    const cap = DEFAULT_LEADERBOARD_DAILY_LIMIT;
    const options = { ...fast, dailyLimit: cap };
    const rating = (board: { rows: Array<{ id: string; rating: number }> }, id: string) =>
      board.rows.find((row) => row.id === id)?.rating ?? NaN;

    const capped = await computeBoard([...others, ...farm], 'MODEL', false, NOW, options);
    // The same as if the account had shared only its first `cap` of them.
    const onlyCap = await computeBoard(
      [...others, ...farm.slice(0, cap)],
      'MODEL',
      false,
      NOW,
      options,
    );
    expect(capped.rows).toEqual(onlyCap.rows);
    expect(capped.debates).toBe(400 + cap);
    expect(capped.notRated.dailyLimit).toBe(50 - cap);

    // Without the limit, the 50 move it further: model-d's rating rises well past the capped one.
    const uncapped = await computeBoard([...others, ...farm], 'MODEL', false, NOW, fast);
    const without = await computeBoard(others, 'MODEL', false, NOW, fast);
    const capMoved = rating(capped, 'model-d') - rating(without, 'model-d');
    expect(rating(uncapped, 'model-d') - rating(without, 'model-d')).toBeGreaterThan(2 * capMoved);
    expect(uncapped.notRated.dailyLimit).toBe(0);
  });

  it('does not rate a debate whose speakers had personality hints, and says why', async () => {
    const hinted = debate('model-a', 'model-b', 'First Speaker', {
      model2: speaker('model-b', { stance: -0.6, personalityHints: true }),
    });
    const plain = debate('model-b', 'model-c', 'First Speaker');
    expect(ratingsOf([hinted, plain], 3)).toEqual(
      new Map([
        [hinted.id, 'PERSONALITY_HINTS'],
        [plain.id, 'RATED'],
      ]),
    );
    const board = await computeBoard([hinted, plain], 'MODEL', false, NOW, fast);
    expect(board.rows.map((row) => [row.id, row.debates])).toEqual([
      ['model-b', 1],
      ['model-c', 1],
    ]);
    expect(board.notRated).toEqual({
      sameSubject: 0,
      notRecorded: 0,
      personalityHints: 1,
      dailyLimit: 0,
    });
  });

  it("leaves a debate with a person's side off the model, setup and style boards, uncounted", async () => {
    const person = speaker('person', {
      stance: -0.6,
      writtenBy: { kind: 'person', modelId: 'person', label: 'Ada' },
    });
    // Ada beats model-a twice; were she rated as a model, model-a would be below model-b.
    const againstAda = [
      debate('model-a', 'person', 'Second Speaker', { model2: person }),
      debate('model-a', 'person', 'Second Speaker', { model2: person }),
    ];
    const models = [
      debate('model-a', 'model-b', 'First Speaker'),
      debate('model-b', 'model-a', 'Second Speaker'),
    ];
    const all = [...againstAda, ...models];
    const ratings = ratingsOf(all, 3);
    // Rated (the People board's), as its card says.
    expect(againstAda.map((one) => ratings.get(one.id))).toEqual(['RATED', 'RATED']);
    for (const subject of ['MODEL', 'SETUP', 'STYLE'] as const) {
      const board = await computeBoard(all, subject, false, NOW, fast);
      const alone = await computeBoard(models, subject, false, NOW, fast);
      expect(board.rows).toEqual(alone.rows);
      expect([board.debates, board.apartDebates, board.notRated]).toEqual([
        alone.debates,
        alone.apartDebates,
        alone.notRated,
      ]);
    }
    const board = await computeBoard(all, 'MODEL', false, NOW, fast);
    expect(board.rows.map((row) => row.id).sort()).toEqual(['model-a', 'model-b']);
  });

  it('rates the debates as the ratings it is given say, as ratingsOf would with the limit', async () => {
    const mine = (sharedAt: number) =>
      debate('model-a', 'model-b', 'First Speaker', { authorId: 'ada', sharedAt });
    const debates = [mine(1), mine(2), debate('model-b', 'model-c', 'Second Speaker')];
    // What a recompute passes every board: ratingsOf's, computed once.
    const given = await computeBoard(debates, 'MODEL', false, NOW, {
      ...fast,
      ratings: ratingsOf(debates, 1),
    });
    expect(given).toEqual(
      await computeBoard(debates, 'MODEL', false, NOW, { ...fast, dailyLimit: 1 }),
    );
    expect([given.debates, given.notRated.dailyLimit]).toEqual([2, 1]);
    // The board reads them, and does not rate the debates again.
    const [, , other] = debates;
    const onlyOther = await computeBoard(debates, 'MODEL', false, NOW, {
      ...fast,
      ratings: new Map(
        debates.map(({ id }): [string, DebateRating] => [
          id,
          id === other?.id ? 'RATED' : 'DAILY_LIMIT',
        ]),
      ),
    });
    expect([onlyOther.debates, onlyOther.notRated.dailyLimit]).toEqual([1, 2]);
    expect(onlyOther.rows.map((row) => row.id).sort()).toEqual(['model-b', 'model-c']);
  });
});

/** A person's side: their turns, written by them under `label`. */
const personSide = (label: string, fields: Partial<RatedSpeaker> = {}): RatedSpeaker =>
  speaker('person', { writtenBy: { kind: 'person', modelId: 'person', label }, ...fields });

/**
 * A judged debate of `authorId` (a person, as `label`) against `model`: the person first when
 * `personFirst`, won by the person when `personWins`.
 */
function againstPerson(
  authorId: string,
  label: string,
  model: string,
  personWins: boolean,
  personFirst = true,
): RatedDebate {
  const first = personFirst ? 'person' : model;
  const second = personFirst ? model : 'person';
  const winner = personWins === personFirst ? 'First Speaker' : 'Second Speaker';
  return debate(first, second, winner, {
    authorId,
    ...(personFirst
      ? { model1: personSide(label) }
      : { model2: personSide(label, { stance: -0.6, rhetoricStyle: 'casual' }) }),
  });
}

describe('the People board', () => {
  const people = (debates: RatedDebate[], listings: Record<string, string> = {}) =>
    computeBoard(debates, 'PEOPLE', false, NOW, {
      ...fast,
      listings: new Map(Object.entries(listings)),
    });
  const models = [
    debate('model-a', 'model-b', 'First Speaker'),
    debate('model-b', 'model-a', 'Second Speaker'),
    debate('model-a', 'model-b', null),
  ];

  it('shows a listed person once three of their debates are rated, under their listing, on the models’ scale', async () => {
    const ada = [
      againstPerson('ada-account', 'Ada L.', 'model-a', true),
      againstPerson('ada-account', 'Ada L.', 'model-b', true, false),
    ];
    const two = await people([...models, ...ada], { 'ada-account': 'Ada' });
    expect(two.rows.map((row) => [row.id, row.kind])).toEqual([
      ['people', 'PEOPLE'],
      ['model-a', null],
      ['model-b', null],
    ]);

    const three = [...ada, againstPerson('ada-account', 'Ada L.', 'model-a', true)];
    const board = await people([...models, ...three], { 'ada-account': 'Ada' });
    const row = board.rows.find((one) => one.kind === 'PERSON');
    expect(row).toMatchObject({ id: personSubjectId('ada-account'), label: 'Ada', debates: 3 });
    expect(row?.id).toMatch(/^person:[0-9a-f]{12}$/);
    expect(MIN_PERSON_DEBATES).toBe(3);
    // An interval around the rating; above the models she beat every time, which keep theirs.
    expect(row?.low).toBeLessThan(row?.rating ?? 0);
    expect(row?.high).toBeGreaterThan(row?.rating ?? 0);
    expect(board.rows.map((one) => one.id)).toEqual([
      personSubjectId('ada-account'),
      'people',
      'model-a',
      'model-b',
    ]);
    expect(board.rows.find((one) => one.id === 'model-a')?.debates).toBe(5);
    expect(board).toMatchObject({ subject: 'PEOPLE', pairsOnly: false, debates: 3 });
  });

  it('fits an unlisted person’s debates into the models’ and the People row, never showing them', async () => {
    const bob = Array.from({ length: 5 }, () =>
      againstPerson('bob-account', 'Bob', 'model-a', false),
    );
    const ada = Array.from({ length: 3 }, () =>
      againstPerson('ada-account', 'Ada', 'model-b', true),
    );
    const board = await people([...models, ...bob, ...ada], { 'ada-account': 'Ada' });
    const text = JSON.stringify(board);
    expect(text).not.toContain('bob-account');
    expect(text).not.toContain(personSubjectId('bob-account'));
    expect(text).not.toContain('Bob');
    expect(text).not.toContain('ada-account');
    // The People row pools everyone, listed or not: Bob's five and Ada's three.
    expect(board.rows.find((row) => row.kind === 'PEOPLE')).toMatchObject({
      id: 'people',
      label: 'People',
      debates: 8,
    });
    expect(board.rows.filter((row) => row.kind === 'PERSON').map((row) => row.label)).toEqual([
      'Ada',
    ]);
    // Bob's five wins count for model-a: it is rated above the model it lost to otherwise.
    const without = await people([...models, ...ada], { 'ada-account': 'Ada' });
    const rating = (found: typeof board, id: string) =>
      found.rows.find((row) => row.id === id)?.rating ?? NaN;
    expect(rating(board, 'model-a')).toBeGreaterThan(rating(without, 'model-a'));
    expect(board.rows.find((row) => row.id === 'model-a')?.debates).toBe(8);
    expect(board.debates).toBe(8);
  });

  it('rates a person against the offline speaker apart, and counts only debates with a person as its own', async () => {
    const debates = [
      ...models,
      ...Array.from({ length: 3 }, () =>
        againstPerson('ada-account', 'Ada', OFFLINE_MODEL_ID, true),
      ),
      againstPerson('ada-account', 'Ada', 'model-a', true),
      // Not recorded: counted as not rated, and only a debate with a person's side is.
      againstPerson('ada-account', 'Ada', 'model-a', true, false),
      debate('model-a', 'model-b', 'First Speaker', {
        model2: { ...speaker('model-b'), writtenBy: null },
      }),
    ];
    const last = debates.at(-2);
    const ratings = ratingsOf(debates, 10);
    if (last) ratings.set(last.id, 'NOT_RECORDED');
    const board = await computeBoard(debates, 'PEOPLE', false, NOW, {
      ...fast,
      ratings,
      listings: new Map([['ada-account', 'Ada']]),
    });
    expect(board.apart.map((row) => [row.id, row.debates])).toEqual([
      [personSubjectId('ada-account'), 3],
      ['people', 3],
      [OFFLINE_MODEL_ID, 3],
    ]);
    // One debate against model-a in the main group: Ada is not shown there.
    expect(board.rows.map((row) => row.id)).toEqual(['people', 'model-a', 'model-b']);
    expect(board).toMatchObject({
      debates: 1,
      apartDebates: 3,
      notRated: { sameSubject: 0, notRecorded: 1, personalityHints: 0, dailyLimit: 0 },
    });
  });

  it('has no pairs-only board, and answers all debates when asked for one', async () => {
    expect(boardKeys.filter((key) => key.subject === 'PEOPLE')).toEqual([
      { subject: 'PEOPLE', pairsOnly: false, controlled: false },
      { subject: 'PEOPLE', pairsOnly: false, controlled: true },
    ]);
    const ada = Array.from({ length: 3 }, () =>
      againstPerson('ada-account', 'Ada', 'model-a', true),
    );
    const board = await computeBoard([...models, ...ada], 'PEOPLE', true, NOW, fast);
    expect(board).toMatchObject({ pairsOnly: false, debates: 3 });
    expect(board.rows.map((row) => row.id)).toContain('people');
  });

  it('gives an empty board without debates against a person, and no People row', async () => {
    const board = await people(models);
    expect(board.rows.map((row) => [row.id, row.kind])).toEqual([
      ['model-a', null],
      ['model-b', null],
    ]);
    expect([board.debates, board.apartDebates]).toEqual([0, 0]);
  });
});

describe(ratingsOf.name, () => {
  const day = Date.parse('2025-06-01T00:00:00.000Z');
  const HOUR = 3_600_000;
  const by = (authorId: string, sharedAt: number, first = 'model-a', second = 'model-b') =>
    debate(first, second, 'First Speaker', { authorId, sharedAt });

  it('counts the first debates of an author and pairing shared on a UTC day, by sharedAt then id', () => {
    // Shared out of order; the pairing is the same whichever side each model took.
    const third = by('ada', day + 3 * HOUR);
    const first = by('ada', day + HOUR, 'model-b', 'model-a');
    const sameTimeLater = by('ada', day + 2 * HOUR);
    const sameTime = { ...by('ada', day + 2 * HOUR), id: 'a-earlier-id' };
    const nextDay = by('ada', day + 24 * HOUR);
    const otherPairing = by('ada', day + 4 * HOUR, 'model-a', 'model-c');
    const otherAuthor = by('bob', day + 5 * HOUR);
    const ratings = ratingsOf(
      [third, first, sameTimeLater, sameTime, nextDay, otherPairing, otherAuthor],
      2,
    );
    expect(Object.fromEntries(ratings)).toEqual({
      [first.id]: 'RATED',
      [sameTime.id]: 'RATED',
      [sameTimeLater.id]: 'DAILY_LIMIT',
      [third.id]: 'DAILY_LIMIT',
      [nextDay.id]: 'RATED',
      [otherPairing.id]: 'RATED',
      [otherAuthor.id]: 'RATED',
    });
  });

  it('gives a debate not judged, or saved before its settings were kept, its reason, without using up the limit', () => {
    const notJudged = { ...by('ada', day), judged: false, winner: null };
    const unknownHints = debate('model-a', 'model-b', 'First Speaker', {
      authorId: 'ada',
      sharedAt: day + 1,
      model1: speaker('model-a', { personalityHints: null }),
    });
    const unknownWriter = debate('model-a', 'model-b', 'First Speaker', {
      authorId: 'ada',
      sharedAt: day + 2,
      model2: speaker('model-b', { writtenBy: null }),
    });
    const hinted = debate('model-a', 'model-b', 'First Speaker', {
      authorId: 'ada',
      sharedAt: day + 3,
      model1: speaker('model-a', { personalityHints: true }),
    });
    const counted = by('ada', day + 4);
    expect(
      Object.fromEntries(ratingsOf([notJudged, unknownHints, unknownWriter, hinted, counted], 1)),
    ).toEqual({
      [notJudged.id]: 'NOT_JUDGED',
      [unknownHints.id]: 'NOT_RECORDED',
      [unknownWriter.id]: 'NOT_RECORDED',
      [hinted.id]: 'PERSONALITY_HINTS',
      [counted.id]: 'RATED',
    });
  });

  it('rates debates against a person, within the daily limit of that person and model', () => {
    const at = (hour: number, model = 'model-a') => ({
      ...againstPerson('ada', 'Ada', model, true),
      sharedAt: day + hour * HOUR,
    });
    const first = at(1);
    const second = at(2);
    const third = at(3);
    const otherModel = at(4, 'model-b');
    const notJudged = { ...at(5), judged: false, winner: null };
    const hinted = {
      ...at(6),
      model2: speaker('model-a', { stance: -0.6, personalityHints: true }),
    };
    // Another person's debates with the same model have a limit of their own.
    const bob = { ...againstPerson('bob', 'Bob', 'model-a', false), sharedAt: day + 7 * HOUR };
    expect(
      Object.fromEntries(ratingsOf([third, first, second, otherModel, notJudged, hinted, bob], 2)),
    ).toEqual({
      [first.id]: 'RATED',
      [second.id]: 'RATED',
      [third.id]: 'DAILY_LIMIT',
      [otherModel.id]: 'RATED',
      [notJudged.id]: 'NOT_JUDGED',
      [hinted.id]: 'PERSONALITY_HINTS',
      [bob.id]: 'RATED',
    });
  });
});
