import {
  communityDebateContracts,
  judgesContracts,
  type JudgesReport,
  type PanelVerdict,
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
import { debateOf, share } from './fixtures.js';

type Speaker = SharedDebate['model1'];

/** A speaker written by the catalogue's `modelId`, with its stance. */
const speaker = (modelId: string, stance: number): Speaker => ({
  name: modelId,
  stance,
  rhetoricStyle: 'formal',
  writtenBy: offlineTurn({ kind: 'model', modelId, label: `Model ${modelId}`, turns: 3 }),
  personalityHints: false,
});

/** `verdict` as the judge `modelId` gave it. */
const by = <V extends PanelVerdict>(modelId: string, verdict: V): V => ({
  ...verdict,
  judgedBy: offlineTurn({ kind: 'model', modelId, label: `Judge ${modelId}`, turns: 2 }),
});

/** A panel's verdict: the scorecard's without its scores. */
function panelOf(verdict: Verdict): PanelVerdict {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { scores, panel, ...outcome } = verdict;
  return outcome;
}

/** A verdict whose two readings disagree: each names the speaker it read first. */
function inconsistent(): Verdict {
  const verdict = offlineVerdict(6, 6);
  return {
    ...verdict,
    winner: null,
    tie: true,
    tieReason: 'readings_disagree',
    readings: [
      { order: 'as_given', winner: 'First Speaker', firstTotal: 56, secondTotal: 40 },
      { order: 'swapped', winner: 'Second Speaker', firstTotal: 40, secondTotal: 56 },
    ],
  };
}

describe("the judges' record", () => {
  let community: ServiceUnderTest;

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  const report = () => community.client.request(judgesContracts.get, {});
  const reportOf = (done: (found: JudgesReport) => boolean) => eventually(report, done, 10_000);

  it('answers an empty record, computed at start, before any judged debate is shared', async () => {
    const empty = await reportOf((found) => found.computedAt !== null);
    expect(empty.judges).toEqual([]);
    expect(empty.debates).toBe(0);
    expect(empty.all).toMatchObject({
      judgeId: null,
      debates: 0,
      positionConsistency: { value: null, count: 0 },
      pairwiseAgreement: { value: null, count: 0 },
      selfPreference: { value: null, count: 0 },
      lengthSlope: { value: null, count: 0 },
    });
  });

  it("computes each judge's record from the shared debates' panels, in the background", async () => {
    // Three debates of model-x (For) against judge-b's own model (Against), each read by
    // judge-a (the scorecard's), judge-b and judge-c. judge-a's readings disagree on the third;
    // judge-b gives its own model's side the win every time, the others the For side.
    const first = by('judge-a', offlineVerdict(8, 5));
    const forSide = panelOf(by('judge-c', offlineVerdict(8, 5)));
    const ownSide = panelOf(by('judge-b', offlineVerdict(5, 8)));
    const debates = [
      { id: 'j1', verdict: { ...first, panel: [ownSide, forSide] } },
      { id: 'j2', verdict: { ...first, panel: [ownSide, forSide] } },
      { id: 'j3', verdict: { ...by('judge-a', inconsistent()), panel: [ownSide, forSide] } },
    ];
    for (const { id, verdict } of debates) {
      await share(
        community,
        debateOf(id, {
          sharedAt: new Date().toISOString(),
          model1: speaker('model-x', 0.6),
          model2: speaker('judge-b', -0.6),
          verdict,
        }),
      );
    }
    const found = await reportOf((found) => found.debates === 3);
    expect(found.judges.map((judge) => [judge.judgeId, judge.label, judge.debates])).toEqual(
      expect.arrayContaining([
        ['judge-a', 'Judge judge-a', 3],
        ['judge-b', 'Judge judge-b', 3],
        ['judge-c', 'Judge judge-c', 3],
      ]),
    );
    const judge = (id: string) => found.judges.find((record) => record.judgeId === id);
    expect(judge('judge-a')?.positionConsistency).toMatchObject({ value: 2 / 3, count: 3 });
    expect(judge('judge-c')?.positionConsistency).toMatchObject({ value: 1, count: 3 });
    // Three judges on each of three debates: three pairs each.
    expect(found.all.pairwiseAgreement.count).toBe(9);
    // judge-b's own model spoke in all three, and others read them: it favoured it each time.
    const self = judge('judge-b')?.selfPreference;
    expect(self?.count).toBe(3);
    expect(self?.value).toBeGreaterThan(0);
    expect(judge('judge-a')?.selfPreference).toMatchObject({ value: null, count: 0 });
  });

  it("follows the readers: their votes are set beside each judge's winner", async () => {
    const verdict = { ...by('judge-a', offlineVerdict(8, 5)), panel: [] };
    await share(
      community,
      debateOf('j4', {
        sharedAt: new Date().toISOString(),
        model1: speaker('model-x', 0.6),
        model2: speaker('model-y', -0.6),
        verdict,
      }),
    );
    // Two readers vote Against: the judges' For side is not theirs.
    for (const voterId of ['r1', 'r2']) {
      await community.client.request(communityDebateContracts.vote, {
        voterId,
        debateId: 'j4',
        kind: 'AGAINST',
      });
    }
    const found = await reportOf(
      (found) =>
        (found.judges.find((record) => record.judgeId === 'judge-a')?.readersVotes.agreement
          .count ?? 0) >= 1,
    );
    const votes = found.judges.find((record) => record.judgeId === 'judge-a')?.readersVotes;
    expect(votes?.agreement).toMatchObject({ value: 0, count: 1 });
  });
});
