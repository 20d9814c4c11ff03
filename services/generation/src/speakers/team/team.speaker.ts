import {
  MAX_FIX_LENGTH,
  MAX_PLAN_LENGTH,
  MAX_REVIEW_FIXES,
  type TeamNotes,
} from '@debate/contracts';
import type { Speaker, SpeakerChunk, TurnRequest } from '../speaker.js';
import type { Analysis } from './analyzer.prompt.js';
import type { Review } from './reviewer.prompt.js';
import type { Found, Searcher } from './searcher.js';

/** A member's whole answer, with what the server said of itself and counted for it. */
export interface Answered<T> {
  readonly value: T;
  readonly serverModel: string | null;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
}

/**
 * The members of a speaker's team, as one model (or the offline speaker) plays them: the writer
 * is the speaker itself (`speak`, guided by `request.guidance`).
 */
export interface TeamMembers extends Speaker {
  analyze(request: TurnRequest, signal: AbortSignal): Promise<Answered<Analysis>>;
  review(
    request: TurnRequest,
    plan: string,
    draft: string,
    signal: AbortSignal,
  ): Promise<Answered<Review>>;
}

type Done = Extract<SpeakerChunk, { type: 'done' }>;

/** The most standing claims and clash points the plan names. */
const MAX_LISTED = 8;

/** What a failed call was still counted (a SpeakerError carries it). */
function spentOn(error: unknown): {
  serverModel: null;
  tokensIn: number | null;
  tokensOut: number | null;
} {
  const { tokensIn, tokensOut } = (error ?? {}) as { tokensIn?: unknown; tokensOut?: unknown };
  return {
    serverModel: null,
    tokensIn: typeof tokensIn === 'number' ? tokensIn : null,
    tokensOut: typeof tokensOut === 'number' ? tokensOut : null,
  };
}

function add(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

/** At most `length` characters of `text` (an ellipsis marks a cut). */
function clipped(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** The plan as the writer and the reader get it: the plan, then what it answers (kept short). */
function planText(analysis: Analysis): string {
  const parts = [analysis.plan.trim()];
  const standing = analysis.standing.slice(0, MAX_LISTED);
  const clashes = analysis.clashes.slice(0, MAX_LISTED);
  if (standing.length > 0) parts.push(`Still standing: ${standing.join('; ')}.`);
  if (clashes.length > 0) parts.push(`Clash points: ${clashes.join('; ')}.`);
  return clipped(parts.join(' '), MAX_PLAN_LENGTH);
}

/**
 * A speaker that is a team (Agent4Debate's): where a search backend is configured, the searcher
 * first finds evidence for the round (the speech cites it as [n]; a failed search leaves none);
 * the analyzer plans the round from the debate so far, the writer writes from the plan
 * (streamed), the reviewer checks
 * the draft against the plan and the round's purpose and accepts it or returns up to three
 * fixes, and then the writer revises once (streamed again from the start: the revision replaces
 * the draft). Tokens are summed over every call.
 *
 * When a member fails: the analyzer or the first draft, the turn fails (as a single speaker's
 * would); the searcher, the team goes on without evidence; the reviewer or the revision, the
 * draft stands. The moderator's turns (written by the first speaker's model) are not a side's
 * speech: its members' writer writes them alone.
 */
export class TeamSpeaker implements Speaker {
  constructor(
    private readonly members: TeamMembers,
    private readonly searcher?: Searcher,
    private readonly onSearchFailed?: (error: unknown) => void,
  ) {}

  async *speak(asked: TurnRequest, signal: AbortSignal): AsyncIterable<SpeakerChunk> {
    if (asked.speaker === 'Moderator') {
      yield* this.members.speak(asked, signal);
      return;
    }
    let calls = 0;
    let tokensIn: number | null = null;
    let tokensOut: number | null = null;
    let serverModel: string | null = null;
    const count = (answer: {
      serverModel: string | null;
      tokensIn: number | null;
      tokensOut: number | null;
    }) => {
      calls += 1;
      tokensIn = add(tokensIn, answer.tokensIn);
      tokensOut = add(tokensOut, answer.tokensOut);
      serverModel = answer.serverModel ?? serverModel;
    };

    let evidence: Found[] = [];
    const searched = this.searcher !== undefined;
    if (this.searcher) {
      yield { type: 'stage', stage: 'searching' };
      try {
        evidence = await this.searcher.search(asked, signal);
      } catch (error) {
        signal.throwIfAborted();
        this.onSearchFailed?.(error);
      }
    }
    const request: TurnRequest = evidence.length > 0 ? { ...asked, evidence } : asked;

    yield { type: 'stage', stage: 'analyzing' };
    const analysis = await this.members.analyze(request, signal);
    count(analysis);
    const plan = planText(analysis.value);

    yield { type: 'stage', stage: 'writing' };
    let draft: Done | undefined;
    for await (const chunk of this.members.speak({ ...request, guidance: { plan } }, signal)) {
      if (chunk.type === 'done') draft = chunk;
      else if (chunk.type === 'delta') yield chunk;
    }
    if (!draft) throw new Error('The writer gave no speech');
    count(draft);

    const finish = (
      speech: Done,
      review: TeamNotes['review'],
      fixes: readonly string[],
      revised: boolean,
    ): Done => {
      const team: TeamNotes = {
        searched,
        evidence: evidence.map(({ title, url }) => ({ title, url })),
        plan,
        review,
        fixes: [...fixes],
        revised,
        // The search is a step too, though no model is asked for it.
        steps: calls + (searched ? 1 : 0),
      };
      return {
        type: 'done',
        text: speech.text,
        summary: speech.summary,
        serverModel,
        tokensIn,
        tokensOut,
        team,
      };
    };

    yield { type: 'stage', stage: 'reviewing' };
    let fixes: string[];
    try {
      const review = await this.members.review(request, plan, draft.text, signal);
      count(review);
      fixes = review.value.accepted
        ? []
        : review.value.fixes
            .map((fix) => clipped(fix.trim(), MAX_FIX_LENGTH))
            .filter(Boolean)
            .slice(0, MAX_REVIEW_FIXES);
    } catch (error) {
      signal.throwIfAborted();
      // The reviewer's failure leaves the draft as it is: the speech is not lost for it.
      count(spentOn(error));
      yield finish(draft, 'failed', [], false);
      return;
    }
    if (fixes.length === 0) {
      yield finish(draft, 'accepted', [], false);
      return;
    }

    yield { type: 'stage', stage: 'revising' };
    let revision: Done | undefined;
    try {
      const guidance = { plan, revision: { draft: draft.text, fixes } };
      for await (const chunk of this.members.speak({ ...request, guidance }, signal)) {
        if (chunk.type === 'done') revision = chunk;
        else if (chunk.type === 'delta') yield chunk;
      }
    } catch (error) {
      signal.throwIfAborted();
      // The revision's failure leaves the draft: it is the speech.
      count(spentOn(error));
    }
    if (!revision) {
      yield finish(draft, 'fixes', fixes, false);
      return;
    }
    count(revision);
    yield finish(revision, 'fixes', fixes, true);
  }
}
