import type { DebateFormat, RhetoricStyle } from '@debate/contracts';

/**
 * A setting's choice as the page shows it: a readable name and, in one line, what it does. The
 * value sent and stored stays the catalogue's ('comment_section', 'formal').
 */
export interface Choice {
  readonly name: string;
  readonly description: string;
}

// What each format and style asks of the speakers, in the words their prompts use.
export const debateFormatChoices: Readonly<Record<DebateFormat, Choice>> = {
  structured: {
    name: 'Structured',
    description: 'Each speaker keeps to the round and its purpose: arguments, rebuttal, summary.',
  },
  oxford: {
    name: 'Oxford',
    description: 'Oxford rules: the speakers address the motion and the audience formally.',
  },
  crossfire: {
    name: 'Crossfire',
    description: 'Direct and quick: each speaker engages the other head-on.',
  },
  parliamentary: {
    name: 'Parliamentary',
    description: 'Government against opposition, each side addressing the house.',
  },
  comment_section: {
    name: 'Comment section',
    description: 'Like an online comment section: short, pointed and informal.',
  },
};

export const rhetoricStyleChoices: Readonly<Record<RhetoricStyle, Choice>> = {
  standard: { name: 'Standard', description: 'Clear, balanced and persuasive.' },
  formal: { name: 'Formal', description: 'Measured and precise language.' },
  casual: { name: 'Casual', description: 'Conversational, as if talking to a friend.' },
  emotional: { name: 'Emotional', description: 'Appeals to emotion and to the people affected.' },
  factual: {
    name: 'Factual',
    description: 'Facts, figures and evidence, without emotional appeals.',
  },
  adversarial: {
    name: 'Adversarial',
    description: 'Combative: presses hard on the weaknesses of the other side.',
  },
};

/** What the moderator option does, under its checkbox. */
export const MODERATOR_DESCRIPTION =
  'A neutral moderator opens the debate and closes it with a fair wrap-up, taking no side.';

/** A value the catalogue offers, as the page shows it; one this page does not know, as it is. */
export function choiceOf(choices: Readonly<Record<string, Choice>>, value: string): Choice {
  const known = Object.hasOwn(choices, value) ? choices[value] : undefined;
  return known ?? { name: value, description: '' };
}
