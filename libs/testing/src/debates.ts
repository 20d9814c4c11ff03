import {
  criterionWeights,
  type Debate,
  judgeCriteria,
  OFFLINE_JUDGE_ID,
  OFFLINE_JUDGE_LABEL,
  type Verdict,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
  type SharedDebate,
  speakerWrittenBy,
  type WrittenBy,
} from '@debate/contracts';

const DAY = 24 * 60 * 60_000;

/** One turn of the offline speaker, as a run reports it. */
export function offlineTurn(fields: Partial<WrittenBy> = {}): WrittenBy {
  return {
    kind: 'offline',
    modelId: OFFLINE_MODEL_ID,
    label: OFFLINE_MODEL_LABEL,
    serverModel: null,
    tokensIn: null,
    tokensOut: null,
    firstTokenMs: 200,
    totalMs: 1500,
    turns: 1,
    failedTurns: 0,
    ...fields,
  };
}

/**
 * A scorecard of the offline judge in which the first speaker scores `first` and the second
 * `second` on every criterion, both readings agreeing.
 */
export function offlineVerdict(first = 7, second = 5): Verdict {
  const total = (score: number) =>
    judgeCriteria.reduce((sum, criterion) => sum + criterionWeights[criterion] * score, 0);
  const winner: Verdict['winner'] =
    first === second ? null : first > second ? 'First Speaker' : 'Second Speaker';
  const reading = (order: 'as_given' | 'swapped') => ({
    order,
    winner,
    firstTotal: total(first),
    secondTotal: total(second),
  });
  return {
    winner,
    tie: winner === null,
    tieReason: winner === null ? 'judged_even' : null,
    firstTotal: total(first),
    secondTotal: total(second),
    scores: (['First Speaker', 'Second Speaker'] as const).flatMap((speaker) =>
      judgeCriteria.map((criterion) => ({
        speaker,
        criterion,
        score: speaker === 'First Speaker' ? first : second,
        reason: `The ${criterion} of the ${speaker}.`,
      })),
    ),
    readings: [reading('as_given'), reading('swapped')],
    judgedBy: offlineTurn({
      modelId: OFFLINE_JUDGE_ID,
      label: OFFLINE_JUDGE_LABEL,
      firstTokenMs: 1,
      totalMs: 2,
      turns: 2,
    }),
    // One judge read it.
    panel: [],
  };
}

/**
 * A shared debate as the debates service answers it (saved ten days ago, shared now, three
 * rounds of both speakers, written by the offline speaker), with `fields` overriding the defaults.
 */
export function debateOf(id: string, fields: Partial<Debate> = {}): Debate {
  const rounds = [1, 2, 3].flatMap((round) => [
    {
      speaker: 'First Speaker' as const,
      round,
      text: `For ${round}`,
      summary: `F${round}`,
      writtenBy: offlineTurn(),
      team: null,
    },
    {
      speaker: 'Second Speaker' as const,
      round,
      text: `Against ${round}`,
      summary: `A${round}`,
      writtenBy: offlineTurn(),
      team: null,
    },
  ]);
  const speaker = (name: Debate['rounds'][number]['speaker']) =>
    speakerWrittenBy(rounds.filter((turn) => turn.speaker === name).map((turn) => turn.writtenBy));
  return {
    id,
    userId: `author-${id}`,
    userDisplayName: '',
    topic: `Topic ${id}`,
    categories: ['Politics'],
    timestamp: new Date(Date.now() - 10 * DAY).toISOString(),
    sharedAt: new Date().toISOString(),
    views: 0,
    upvotes: 0,
    downvotes: 0,
    isPublic: true,
    model1: {
      name: OFFLINE_MODEL_ID,
      stance: 0.6,
      rhetoricStyle: 'formal',
      writtenBy: speaker('First Speaker'),
      personalityHints: false,
    },
    model2: {
      name: OFFLINE_MODEL_ID,
      stance: -0.6,
      rhetoricStyle: 'casual',
      writtenBy: speaker('Second Speaker'),
      personalityHints: false,
    },
    rounds,
    verdict: null,
    debateFormat: 'structured',
    moderatorEnabled: false,
    rematchOf: null,
    stopped: false,
    ...fields,
  };
}

/**
 * The same debate as the debates service announces it: with its author's plan (not PRO unless
 * `fields` say so).
 */
export function sharedDebateOf(id: string, fields: Partial<SharedDebate> = {}): SharedDebate {
  const { isPro = false, ...debate } = fields;
  return { ...debateOf(id, debate), isPro };
}
