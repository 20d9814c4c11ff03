import { generatorStanceLabel, type RhetoricStyle } from '@debate/contracts';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SpeakerChunk, SpokenTurn, TurnRequest } from './speaker.js';
import type { Analysis } from './team/analyzer.prompt.js';
import type { Review } from './team/reviewer.prompt.js';
import type { Answered, TeamMembers } from './team/team.speaker.js';

export interface OfflineSpeakerOptions {
  /** How fast words come out; 0 writes the whole turn at once. */
  readonly tokensPerSecond: number;
  /** How long before the first word. */
  readonly firstTokenDelayMs: number;
}

const openers: Record<RhetoricStyle, readonly string[]> = {
  standard: ['Let me set out my case.', 'Here is how I see it.'],
  formal: ['Allow me to present the position with due care.', 'I shall state my case plainly.'],
  casual: ["Okay, here's the thing.", "Look, let's keep this simple."],
  emotional: ['This matters more than statistics can show.', 'Think of the people this touches.'],
  factual: ['Consider what the evidence shows.', 'Start with what can be measured.'],
  adversarial: ['The other side has this backwards.', 'Let us not pretend this is close.'],
};

const supporting = [
  'it widens what people can choose for themselves',
  'the costs of standing still are larger than the costs of change',
  'the places that tried it learned more than they lost',
  'it puts the burden on those best able to carry it',
  'fairness demands that the rule apply to everyone',
  'the long-term gains outweigh the short-term friction',
];

const opposing = [
  'it trades a real freedom for a promised benefit',
  'the risks fall on those least able to bear them',
  'the evidence so far is thinner than its champions admit',
  'good intentions do not make a workable rule',
  'there are cheaper ways to reach the same goal',
  'it invites consequences nobody has priced in',
];

const neutral = [
  'both sides are right about something important',
  'the answer depends on how it is done more than on whether',
  'the strongest version of each side deserves a hearing',
];

/** A stable number from the parts of a turn, so a debate reads the same each time. */
function seed(...parts: readonly (string | number)[]): number {
  return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

function pick<T>(list: readonly T[], n: number, offset = 0): T {
  return list[(n + offset) % list.length] as T;
}

/** A turn's first sentence, at most 160 characters: what its summary says (a person's turn's too). */
export function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim())?.[1] ?? text.trim();
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function lastTurnOf(earlier: readonly SpokenTurn[], speaker: string): SpokenTurn | undefined {
  return [...earlier].reverse().find((turn) => turn.speaker === speaker);
}

/**
 * One sentence of a person's turn, verbatim, for the offline speaker to quote and answer: a
 * sentence ends at . ! or ? before a space, or at a line break; one of at least three words is
 * preferred, chosen by the stable seed so a debate reads the same each time.
 */
function sentenceToAnswer(text: string, n: number): string | undefined {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
  const substantial = sentences.filter((sentence) => sentence.split(/\s+/).length >= 3);
  const pool = substantial.length > 0 ? substantial : sentences;
  return pool.length === 0 ? undefined : pick(pool, n);
}

/** The motion without its question mark, for quoting in a sentence. */
function motion(topic: string): string {
  return topic.trim().replace(/[?.!]+$/, '');
}

function write(request: TurnRequest): { text: string; summary: string } {
  const { topic, settings, round, speaker } = request;
  const n = seed(topic, speaker, round);
  const label = generatorStanceLabel(settings.stance);
  const pool = settings.stance > 0.3 ? supporting : settings.stance < -0.3 ? opposing : neutral;
  const side =
    settings.stance > 0.3 ? 'in favour of' : settings.stance < -0.3 ? 'against' : 'undecided on';
  const opener = pick(openers[settings.rhetoricStyle], n);
  const hints = settings.personality.trim() ? ` Speaking as ${settings.personality.trim()}:` : '';
  const quoted = `"${motion(topic)}"`;

  if (speaker === 'Moderator') {
    if (round === 0) {
      const text = `Welcome to this ${request.debateFormat.replace('_', ' ')} debate on ${quoted}. Our first speaker will argue one side and our second speaker the other, over three rounds: constructive arguments, rebuttal, and summary. Let us begin.`;
      return { text, summary: `The moderator opened the debate on ${quoted}.` };
    }
    const first = lastTurnOf(request.earlier, 'First Speaker');
    const second = lastTurnOf(request.earlier, 'Second Speaker');
    const text = `Thank you both. The first speaker closed with: ${first ? firstSentence(first.summary) : 'no summary'} The second speaker answered: ${second ? firstSentence(second.summary) : 'no summary'} The question of ${quoted} remains for each of you to weigh.`;
    return { text, summary: 'The moderator closed the debate with a neutral wrap-up.' };
  }

  const reasons = [pick(pool, n), pick(pool, n, 1), pick(pool, n, 2)] as const;
  const opponent = lastTurnOf(
    request.earlier,
    speaker === 'First Speaker' ? 'Second Speaker' : 'First Speaker',
  );
  // Against a person, each turn quotes a sentence of their last turn word for word and answers
  // it, so that the person sees the model took in what they wrote.
  const personSaid =
    request.opponentIsPerson && opponent ? sentenceToAnswer(opponent.text, n) : undefined;
  const youSaid = personSaid === undefined ? undefined : `You said: “${personSaid}”`;
  if (round === 1) {
    const answered = youSaid ? ` ${youSaid} I see it the other way.` : '';
    const text = `${opener}${hints}${answered} I stand ${side} ${quoted} (${label}). First, ${reasons[0]}. Second, ${reasons[1]}. Third, ${reasons[2]}. Taken together, these points show why ${quoted} should be judged as I judge it.`;
    const summary = `I argued ${side} ${quoted}. The heart of it: ${reasons[0]}.`;
    return { text, summary };
  }
  if (round === 2) {
    const answered =
      youSaid ??
      (opponent
        ? `My opponent claimed: ${firstSentence(opponent.summary)}`
        : 'My opponent has not yet made a case.');
    const text = `${answered} That does not hold up. ${capitalised(reasons[1])}, and nothing said so far answers that. Moreover, ${reasons[2]}. So my position ${side} ${quoted} stands.`;
    const summary = `I answered my opponent: ${reasons[1]}. My position ${side} ${quoted} stands.`;
    return { text, summary };
  }
  const bestPoint = youSaid
    ? `${youSaid} It does not change the balance.`
    : opponent
      ? `My opponent's best point was this: ${firstSentence(opponent.summary).replace(/\s+/g, ' ')} It does not change the balance.`
      : undefined;
  const text = [
    `To sum up: I have argued ${side} ${quoted}.`,
    `${capitalised(reasons[0])}, and ${reasons[1]}.`,
    ...(bestPoint ? [bestPoint] : []),
    'I ask you to weigh these reasons carefully.',
  ].join(' ');
  const summary = `I closed ${side} ${quoted}. ${capitalised(reasons[0])}.`;
  return { text, summary };
}

/** The offline team's analysis: the opponent's last point, the clash, a plan for the round. */
function analyse(request: TurnRequest): Analysis {
  const { topic, settings, round, speaker } = request;
  const quoted = `"${motion(topic)}"`;
  const opponent = lastTurnOf(
    request.earlier,
    speaker === 'First Speaker' ? 'Second Speaker' : 'First Speaker',
  );
  const claim = opponent ? firstSentence(opponent.summary) : undefined;
  const side = settings.stance > 0.3 ? 'for' : settings.stance < -0.3 ? 'against' : 'undecided on';
  const plans: Record<number, string> = {
    1: `Open ${side} ${quoted} with the strongest reason, then two more; concede nothing yet.`,
    2: claim
      ? `Answer "${claim}" first, then press the second reason; concede that change has costs.`
      : 'Set out the case again: there is nothing to answer yet.',
    3: claim
      ? `Restate the two strongest reasons and say why they outweigh "${claim}".`
      : 'Restate the two strongest reasons.',
  };
  return {
    standing: claim ? [claim] : [],
    clashes: [`Whether ${quoted} does more good than harm.`],
    plan: plans[round] ?? `Speak ${side} ${quoted}.`,
  };
}

/** The offline reviewer: an opening must say what is at stake; rebuttals must name the opponent. */
function reviewDraft(request: TurnRequest, draft: string): Review {
  const fixes: string[] = [];
  if (request.round === 1 && !/at stake/.test(draft)) {
    fixes.push('Close by saying what is at stake if the motion is decided wrongly.');
  }
  const opponentSpoke = request.earlier.some(
    (turn) => turn.speaker !== request.speaker && turn.speaker !== 'Moderator',
  );
  if (request.round >= 2 && opponentSpoke && !/opponent/i.test(draft)) {
    fixes.push("Answer the opponent's last point directly.");
  }
  return { accepted: fixes.length === 0, fixes };
}

/** The offline writer's revision: the draft with a sentence for each fix it knows. */
function revise(request: TurnRequest, draft: string, fixes: readonly string[]): string {
  const quoted = `"${motion(request.topic)}"`;
  const added = fixes.map((fix) =>
    /at stake/.test(fix)
      ? `What is at stake: if ${quoted} is decided wrongly, the people it touches pay for it.`
      : `My opponent's last point does not change this.`,
  );
  return [draft, ...added].join(' ');
}

const unspent = { serverModel: null, tokensIn: null, tokensOut: null } as const;

/**
 * A speaker that needs no network: deterministic, topic- and stance-aware arguments, rebuttals
 * that answer the other side's previous turn, and summaries of at most three sentences, streamed
 * word by word at a set pace. Always in the catalogue (the only model without MODEL_CATALOG or
 * an OpenAI key), and what tests, demos and load tests use (they must never spend provider money).
 * It is also a team's members (OFFLINE_SPEAKER_MODE=team): a deterministic analyzer, reviewer
 * and revision.
 */
export class OfflineSpeaker implements TeamMembers {
  constructor(private readonly options: OfflineSpeakerOptions) {}

  analyze(request: TurnRequest): Promise<Answered<Analysis>> {
    return Promise.resolve({ value: analyse(request), ...unspent });
  }

  review(request: TurnRequest, _plan: string, draft: string): Promise<Answered<Review>> {
    return Promise.resolve({ value: reviewDraft(request, draft), ...unspent });
  }

  async *speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    const written = write(request);
    const revision = request.guidance?.revision;
    // A team's writer cites the first source its searcher found.
    const [source] = request.evidence ?? [];
    const drafted = source ? `${written.text} As [1] reports: ${source.title}.` : written.text;
    const text = revision ? revise(request, revision.draft, revision.fixes) : drafted;
    const { summary } = written;
    const words = text.match(/\S+\s*/g) ?? [text];
    if (this.options.firstTokenDelayMs > 0) {
      await sleep(this.options.firstTokenDelayMs, undefined, { signal });
    }
    const gap = this.options.tokensPerSecond > 0 ? 1000 / this.options.tokensPerSecond : 0;
    const started = Date.now();
    for (const [index, word] of words.entries()) {
      if (gap > 0 && index > 0) {
        // Paced against the start, so timer drift does not add up over a turn.
        const due = started + index * gap - Date.now();
        if (due > 0) await sleep(due, undefined, { signal });
      }
      signal.throwIfAborted();
      yield { type: 'delta', text: word };
    }
    yield { type: 'done', text, summary, serverModel: null, tokensIn: null, tokensOut: null };
  }
}
