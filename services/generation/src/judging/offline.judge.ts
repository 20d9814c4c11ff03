import {
  criterionWeights,
  judgeCriteria,
  type JudgeCriterion,
  OFFLINE_JUDGE_ID,
  OFFLINE_JUDGE_LABEL,
  type SpeakerModelRef,
} from '@debate/contracts';
import type { Judge, JudgedReading, Position, ReadingRequest, ReadingResult } from './judge.js';

const clamp = (score: number) => Math.min(10, Math.max(1, Math.round(score)));

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** What the offline judge reads in a speaker's words, per criterion: a score and why. */
function assess(text: string): Record<JudgeCriterion, { score: number; reason: string }> {
  const reasons = count(text, /\b(first|second|third|moreover|because|therefore|so)\b/gi);
  const evidence = count(text, /\b(evidence|data|study|studies|measured|figures?|percent)\b|\d+/gi);
  const rebuttal = count(
    text,
    /\b(opponent|other side|claimed|does not hold|answers?|answered)\b/gi,
  );
  const sentences = text.split(/[.!?]+\s/).filter((sentence) => sentence.trim() !== '');
  const words = text.split(/\s+/).filter(Boolean).length;
  const perSentence = sentences.length === 0 ? words : words / sentences.length;
  return {
    argument: {
      score: clamp(3 + reasons),
      reason: `It gives ${reasons} marked reasons or conclusions across its rounds.`,
    },
    evidence: {
      score: clamp(2 + 2 * evidence),
      reason: `It points to evidence, data or figures ${evidence} times.`,
    },
    rebuttal: {
      score: clamp(2 + 2 * rebuttal),
      reason: `It takes up the other side's case ${rebuttal} times.`,
    },
    clarity: {
      score: perSentence <= 18 ? 9 : perSentence <= 25 ? 7 : perSentence <= 35 ? 5 : 3,
      reason: `Its sentences run ${Math.round(perSentence)} words on average.`,
    },
  };
}

/**
 * The judge that needs no network: it counts, in each speaker's words, marked reasons,
 * pointers to evidence, answers to the other side, and sentence length, and scores them by
 * fixed rules. Deterministic (the same debate, the same scorecard) and blind to the order it
 * reads the speakers in; labelled as what it is.
 */
export class OfflineJudge implements Judge {
  readonly ref: SpeakerModelRef = {
    id: OFFLINE_JUDGE_ID,
    label: OFFLINE_JUDGE_LABEL,
    kind: 'offline',
  };

  read(request: ReadingRequest): Promise<JudgedReading> {
    const words = (position: Position) =>
      request.turns
        .filter((turn) => turn.position === position)
        .map((turn) => turn.text)
        .join(' ');
    const scores = { A: assess(words('A')), B: assess(words('B')) };
    const weighted = (position: Position) =>
      judgeCriteria.reduce(
        (sum, criterion) => sum + criterionWeights[criterion] * scores[position][criterion].score,
        0,
      );
    const difference = weighted('A') - weighted('B');
    const result: ReadingResult = {
      scores,
      winner: difference === 0 ? 'tie' : difference > 0 ? 'A' : 'B',
    };
    return Promise.resolve({ result, serverModel: null, tokensIn: null, tokensOut: null });
  }
}
