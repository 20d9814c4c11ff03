import { debatesContracts, type FinishedRun, type PanelVerdict } from '@debate/contracts';
import { INSTANCE_KEY } from '@debate/nest';
import { offlineVerdict, type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DebatesServiceModule } from '../src/index.js';
import { GenerationStandIn } from './generation-stand-in.js';

// The debates service alone, the generation instance holding the finished runs stood in for.
describe('saving a debate', () => {
  const generation = new GenerationStandIn();
  let debates: ServiceUnderTest;

  const save = (userId: string, runId: string, fields: { userDisplayName?: string | null } = {}) =>
    debates.client.request(debatesContracts.save, {
      userId,
      userDisplayName: null,
      isPro: false,
      runId,
      categories: ['Politics', 'Environment'],
      ...fields,
    });

  beforeAll(async () => {
    debates = await startServiceUnderTest({
      service: 'debates',
      register: (runtime) => DebatesServiceModule.register(runtime),
      standIns: { generation: generation.module() },
    });
  });

  afterAll(async () => {
    await debates?.stop();
  });

  it("keeps a finished run as a private debate: its settings and the speakers' rounds", async () => {
    const run = generation.finish('ada', 'Should cities ban cars?');
    const before = Date.now();
    const saved = await save('ada', run.runId);
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.debate).toEqual({
      id: run.runId,
      userId: 'ada',
      userDisplayName: 'Anonymous User',
      topic: 'Should cities ban cars?',
      categories: ['Politics', 'Environment'],
      timestamp: expect.any(String),
      sharedAt: null,
      views: 0,
      upvotes: 0,
      downvotes: 0,
      isPublic: false,
      model1: {
        name: 'gpt-4',
        stance: 0.6,
        rhetoricStyle: 'formal',
        // Its three rounds, not the moderator's turns (also on gpt-4): tokens summed, the
        // failed second round counted.
        writtenBy: {
          kind: 'model',
          modelId: 'gpt-4',
          label: 'GPT-4o',
          serverModel: 'gpt-4o-2024-08-06',
          tokensIn: 200 + 300 + 600,
          tokensOut: 100 + 0 + 100,
          firstTokenMs: 400,
          totalMs: 9000,
          turns: 3,
          failedTurns: 1,
        },
        // It had personality hints ('a teacher'): kept as that, not as what they said.
        personalityHints: true,
      },
      model2: {
        name: 'offline',
        stance: -0.4,
        rhetoricStyle: 'casual',
        writtenBy: {
          kind: 'offline',
          modelId: 'offline',
          label: 'Offline speaker',
          serverModel: null,
          tokensIn: null,
          tokensOut: null,
          firstTokenMs: 200,
          totalMs: 4500,
          turns: 3,
          failedTurns: 0,
        },
        personalityHints: false,
      },
      // The moderator's opening and closing are not rounds; each round keeps what wrote it.
      rounds: run.turns.filter((turn) => turn.speaker !== 'Moderator'),
      // The judges' scorecard is kept with it.
      verdict: run.verdict,
      // Its format, kept for a rematch; not a rematch itself.
      debateFormat: 'oxford',
      moderatorEnabled: true,
      rematchOf: null,
      // It ran to its end.
      stopped: false,
    });
    expect(Date.parse(saved.debate.timestamp)).toBeGreaterThanOrEqual(before - 1_000);
    expect(
      await debates.client.request(debatesContracts.get, { userId: 'ada', debateId: run.runId }),
    ).toEqual({ debate: saved.debate });
  });

  it("keeps the judges' panel with the scorecard, as each judge gave it", async () => {
    const run = generation.finish('ada', 'Should cities plant more trees?');
    // Two more judges read it (JUDGE_PANEL_SIZE=3): the offline judge, siding with the second
    // speaker, and a model whose two readings disagreed.
    const { winner, tie, tieReason, firstTotal, secondTotal, readings, judgedBy } = offlineVerdict(
      4,
      9,
    );
    const panel: PanelVerdict[] = [
      { winner, tie, tieReason, firstTotal, secondTotal, readings, judgedBy },
      {
        winner: null,
        tie: true,
        tieReason: 'readings_disagree',
        firstTotal: 50,
        secondTotal: 50,
        readings: [
          { order: 'as_given', winner: 'First Speaker', firstTotal: 56, secondTotal: 48 },
          { order: 'swapped', winner: 'Second Speaker', firstTotal: 44, secondTotal: 52 },
        ],
        judgedBy: { ...judgedBy, kind: 'model', modelId: 'gpt-4', label: 'GPT-4o' },
      },
    ];
    if (!run.verdict) throw new Error('the stand-in judged it');
    run.verdict = { ...run.verdict, panel };
    const saved = await save('ada', run.runId);
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.debate.verdict).toEqual(run.verdict);
    const { debate } = await debates.client.request(debatesContracts.get, {
      userId: 'ada',
      debateId: run.runId,
    });
    expect(debate?.verdict?.panel).toEqual(panel);
  });

  it('keeps a run its owner stopped as a debate marked stopped, without a verdict', async () => {
    const run = generation.finish('ada', 'Should trains be free?', { stopped: true });
    const saved = await save('ada', run.runId);
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.debate).toMatchObject({
      stopped: true,
      verdict: null,
      rounds: [expect.objectContaining({ speaker: 'First Speaker', round: 1 })],
    });
    const { debates: listed } = await debates.client.request(debatesContracts.list, {
      userId: 'ada',
      search: 'trains',
      order: 'newest',
      limit: 10,
    });
    expect(listed.map((debate) => [debate.id, debate.stopped])).toEqual([[run.runId, true]]);
  });

  it("keeps a debate against a model with the person's side: their name on their rounds", async () => {
    const run = generation.finish('ada', 'Should cities ban cars?', { person: 'Ada Lovelace' });
    const saved = await save('ada', run.runId);
    if (!saved.saved) throw new Error(saved.message);
    const person = {
      kind: 'person',
      modelId: 'person',
      label: 'Ada Lovelace',
      serverModel: null,
      tokensIn: null,
      tokensOut: null,
      firstTokenMs: null,
    };
    expect(saved.debate.model2).toEqual({
      name: 'person',
      stance: -0.4,
      rhetoricStyle: 'casual',
      writtenBy: { ...person, totalMs: 60_000 * (1 + 2 + 3), turns: 3, failedTurns: 0 },
      personalityHints: false,
    });
    const theirs = saved.debate.rounds.filter((round) => round.speaker === 'Second Speaker');
    expect(theirs.map((round) => round.writtenBy)).toEqual(
      [1, 2, 3].map((round) => ({ ...person, totalMs: 60_000 * round, turns: 1, failedTurns: 0 })),
    );
    // Read back from the store as it was saved.
    expect(
      await debates.client.request(debatesContracts.get, { userId: 'ada', debateId: run.runId }),
    ).toEqual({ debate: saved.debate });
  });

  it('keeps the name the user goes by', async () => {
    const run = generation.finish('bo', 'Is homework useful?');
    const saved = await save('bo', run.runId, { userDisplayName: '  Bo  ' });
    expect(saved).toMatchObject({ saved: true, debate: { userDisplayName: 'Bo' } });
    const unnamed = generation.finish('bo', 'Should zoos exist?');
    expect(await save('bo', unnamed.runId, { userDisplayName: '' })).toMatchObject({
      saved: true,
      debate: { userDisplayName: 'Anonymous User' },
    });
  });

  it('saves a run once', async () => {
    const run = generation.finish('ada', 'Is remote work here to stay?');
    expect((await save('ada', run.runId)).saved).toBe(true);
    expect(await save('ada', run.runId, { userDisplayName: 'Ada' })).toEqual({
      saved: false,
      reason: 'already_saved',
      message: 'This debate is already saved',
    });
  });

  it("never saves someone else's run, an unknown run, or one whose instance is gone", async () => {
    const notFound = {
      saved: false,
      reason: 'run_not_found',
      message: 'This debate is no longer available to save',
    };
    const adas = generation.finish('ada', 'Can a machine think?');
    expect(await save('eve', adas.runId)).toEqual(notFound);
    // An id no generation instance made.
    expect(await save('ada', 'not-a-run')).toEqual(notFound);
    // An id of an instance that has stopped (nobody answers on its subject).
    const gone = INSTANCE_KEY === '0badc0de' ? 'deadbeef' : '0badc0de';
    expect(await save('ada', `${gone}${randomUUID().slice(8)}`)).toEqual(notFound);
    // None of them was kept.
    const { debates: eves } = await debates.client.request(debatesContracts.list, {
      userId: 'eve',
      order: 'newest',
      limit: 50,
    });
    expect(eves).toEqual([]);
    // Ada's run is still hers to save.
    expect((await save('ada', adas.runId)).saved).toBe(true);
  });

  describe('a run kept when it completed', () => {
    const keep = (userId: string, run: FinishedRun) =>
      debates.client.request(debatesContracts.keepRun, { userId, run });

    it('is saved though its generation instance no longer has it', async () => {
      const run = generation.finish('kim', 'Should libraries open on Sundays?');
      await expect(keep('kim', run)).resolves.toEqual({ kept: true });
      generation.forget(run.runId);
      const saved = await save('kim', run.runId);
      if (!saved.saved) throw new Error(saved.message);
      expect(saved.debate).toMatchObject({
        id: run.runId,
        topic: 'Should libraries open on Sundays?',
        verdict: run.verdict,
        debateFormat: 'oxford',
      });
      expect(saved.debate.rounds).toHaveLength(6);
      // Saved, it is kept no more: a second save finds it saved, not kept.
      expect(await save('kim', run.runId)).toMatchObject({ reason: 'already_saved' });
    });

    it("is one per user, the latest, and never another user's", async () => {
      const earlier = generation.finish('lee', 'Is chess a sport?');
      const later = generation.finish('lee', 'Is poker a sport?');
      await keep('lee', earlier);
      await keep('lee', later);
      generation.forget(earlier.runId);
      generation.forget(later.runId);
      expect(await save('lee', earlier.runId)).toMatchObject({ reason: 'run_not_found' });
      expect(await save('max', later.runId)).toMatchObject({ reason: 'run_not_found' });
      expect((await save('lee', later.runId)).saved).toBe(true);
    });
  });
});
