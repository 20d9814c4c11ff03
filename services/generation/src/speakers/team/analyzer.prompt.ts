import { generatorStanceLabel } from '@debate/contracts';
import type { StructuredOutputMode } from '@debate/contracts';
import { z } from 'zod';
import { answerHint, roundPurpose, SPEAKER_MATERIAL, transcript } from '../prompts.js';
import { quoted } from '../quoted.js';
import type { TurnRequest } from '../speaker.js';
import { evidenceLines } from './searcher.js';

/** The analyzer's answer: what stands against the speaker, where the sides clash, the plan. */
export const Analysis = z.object({
  // A longer list is cut where the plan is made (MAX_LISTED), not refused. (No maxItems in the
  // JSON schema: OpenAI's strict structured outputs have refused it.)
  standing: z.array(z.string().trim().min(1)),
  clashes: z.array(z.string().trim().min(1)),
  plan: z.string().trim().min(1),
});
export type Analysis = z.output<typeof Analysis>;

export const analysisSchema = {
  type: 'object',
  properties: {
    standing: {
      type: 'array',
      items: { type: 'string' },
      description: "The opponent's claims still standing (at most 8).",
    },
    clashes: {
      type: 'array',
      items: { type: 'string' },
      description: 'The clash points (at most 8).',
    },
    plan: {
      type: 'string',
      description: 'What to argue, what to answer and what to concede this round.',
    },
  },
  required: ['standing', 'clashes', 'plan'],
  additionalProperties: false,
} as const;

/** The analyzer's system message: it plans the round, it does not write the speech. */
export function analyzerSystem(request: TurnRequest, mode: StructuredOutputMode): string {
  return [
    `You are the analyzer of the ${request.speaker}'s team in a debate.`,
    "Read the motion, your speaker's stance and style, and every earlier turn. Do not write the speech.",
    "List the opponent's claims still standing, the clash points between the sides, and a plan for this round: what to argue, what to answer and what to concede.",
    `This round: ${roundPurpose(request.round)}`,
    SPEAKER_MATERIAL,
    answerHint(mode, 'submit_analysis', '{ "standing": [...], "clashes": [...], "plan": ... }'),
  ].join('\n');
}

export function analyzerUser(request: TurnRequest): string {
  const { settings } = request;
  return [
    quoted('motion', request.topic),
    `Your speaker's stance: ${generatorStanceLabel(settings.stance)} (${settings.stance.toFixed(1)} on a scale from -1, against, to 1, for)`,
    `Rhetoric style: ${settings.rhetoricStyle}`,
    ...transcript(request.earlier),
    ...evidenceLines(request.evidence ?? []),
  ].join('\n');
}
