import { MAX_REVIEW_FIXES, type StructuredOutputMode } from '@debate/contracts';
import { z } from 'zod';
import { answerHint, roundPurpose, SPEAKER_MATERIAL } from '../prompts.js';
import { quoted } from '../quoted.js';
import type { TurnRequest } from '../speaker.js';

/** The reviewer's answer: the draft accepted, or up to three concrete fixes. */
export const Review = z.object({
  accepted: z.boolean(),
  // More than MAX_REVIEW_FIXES are cut to it where the review is read, not refused.
  fixes: z.array(z.string().trim()),
});
export type Review = z.output<typeof Review>;

export const reviewSchema = {
  type: 'object',
  properties: {
    accepted: { type: 'boolean', description: 'True when the speech needs no change.' },
    fixes: {
      type: 'array',
      items: { type: 'string' },
      description: `At most ${MAX_REVIEW_FIXES} concrete fixes; none when accepted.`,
    },
  },
  required: ['accepted', 'fixes'],
  additionalProperties: false,
} as const;

/** The reviewer's system message: what it checks the draft against. */
export function reviewerSystem(request: TurnRequest, mode: StructuredOutputMode): string {
  return [
    `You are the reviewer of the ${request.speaker}'s team in a debate.`,
    `Check the draft speech against the plan and the round's purpose (${roundPurpose(request.round)})`,
    "Check its structure, that it answers the opponent's points directly, that it does not contradict the speaker's earlier turns, that it holds no placeholders, and that it is within the length limit.",
    `Accept it, or return at most ${MAX_REVIEW_FIXES} concrete fixes.`,
    SPEAKER_MATERIAL,
    answerHint(mode, 'submit_review', '{ "accepted": ..., "fixes": [...] }'),
  ].join('\n');
}

export function reviewerUser(
  request: TurnRequest,
  plan: string,
  draft: string,
  maxWords: number,
): string {
  const own = request.earlier.filter((turn) => turn.speaker === request.speaker);
  return [
    quoted('motion', request.topic),
    `The plan: ${quoted('plan', plan)}`,
    `Length limit: about ${maxWords} words.`,
    own.length === 0
      ? "The speaker's earlier turns: none."
      : `The speaker's earlier turns:\n${own.map((turn) => quoted('summary', turn.summary, { round: turn.roundTitle })).join('\n')}`,
    `The draft:\n${quoted('draft', draft)}`,
  ].join('\n');
}
