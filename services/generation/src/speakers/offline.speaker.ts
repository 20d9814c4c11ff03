import { generatorStanceLabel, type RhetoricStyle } from '@debate/contracts';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Speaker, SpeakerChunk, SpokenTurn, TurnRequest } from './speaker.js';

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

function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text.trim())?.[1] ?? text.trim();
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function lastTurnOf(earlier: readonly SpokenTurn[], speaker: string): SpokenTurn | undefined {
  return [...earlier].reverse().find((turn) => turn.speaker === speaker);
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
  if (round === 1) {
    const text = `${opener}${hints} I stand ${side} ${quoted} (${label}). First, ${reasons[0]}. Second, ${reasons[1]}. Third, ${reasons[2]}. Taken together, these points show why ${quoted} should be judged as I judge it.`;
    const summary = `I argued ${side} ${quoted}. The heart of it: ${reasons[0]}.`;
    return { text, summary };
  }
  if (round === 2) {
    const answered = opponent
      ? `My opponent claimed: ${firstSentence(opponent.summary)}`
      : 'My opponent has not yet made a case.';
    const text = `${answered} That does not hold up. ${capitalised(reasons[1])}, and nothing said so far answers that. Moreover, ${reasons[2]}. So my position ${side} ${quoted} stands.`;
    const summary = `I answered my opponent: ${reasons[1]}. My position ${side} ${quoted} stands.`;
    return { text, summary };
  }
  const text = `To sum up: I have argued ${side} ${quoted}. ${capitalised(reasons[0])}, and ${reasons[1]}. ${opponent ? `My opponent's best point was this: ${firstSentence(opponent.summary)} It does not change the balance.` : ''} I ask you to weigh these reasons carefully.`;
  const summary = `I closed ${side} ${quoted}. ${capitalised(reasons[0])}.`;
  return { text: text.replace(/\s+/g, ' ').trim(), summary };
}

/**
 * A speaker that needs no network: deterministic, topic- and stance-aware arguments, rebuttals
 * that answer the other side's previous turn, and summaries of at most three sentences, streamed
 * word by word at a set pace. Always in the catalogue (the only model without MODEL_CATALOG or
 * an OpenAI key), and what tests, demos and load tests use (they must never spend provider money).
 */
export class OfflineSpeaker implements Speaker {
  constructor(private readonly options: OfflineSpeakerOptions) {}

  async *speak(request: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    const { text, summary } = write(request);
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
