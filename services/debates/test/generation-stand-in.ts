import {
  type FinishedRun,
  OFFLINE_MODEL_ID,
  type ParsedRequestOf,
  PERSON_MODEL_ID,
  type ResponseOf,
  runLookupContract,
} from '@debate/contracts';
import { HandleRequest, INSTANCE_KEY } from '@debate/nest';
import { Controller, type DynamicModule, Module } from '@nestjs/common';
import { offlineTurn, offlineVerdict } from '@debate/testing';
import { randomUUID } from 'node:crypto';

/** A turn of the catalogue's 'gpt-4' on an OpenAI server (it reports its dated snapshot). */
export const modelTurn = (tokensIn: number, tokensOut: number, failed = false) =>
  offlineTurn({
    kind: 'model',
    modelId: 'gpt-4',
    label: 'GPT-4o',
    serverModel: 'gpt-4o-2024-08-06',
    tokensIn,
    tokensOut,
    firstTokenMs: 400,
    totalMs: 3000,
    failedTurns: failed ? 1 : 0,
  });

/** A turn a person wrote (a debate against a model), under their name, in `totalMs`. */
export const personTurn = (label: string, totalMs: number) =>
  offlineTurn({ kind: 'person', modelId: PERSON_MODEL_ID, label, firstTokenMs: null, totalMs });

/**
 * The generation service as the debates service meets it: the instance holding the runs it
 * finished, answering for them on its own subject.
 */
export class GenerationStandIn {
  private readonly runs = new Map<string, { userId: string; run: FinishedRun }>();

  /**
   * A run of `userId`'s that finished: the moderator's opening, both speakers' three rounds and
   * the closing; the first speaker and the moderator on the model 'gpt-4' (its second round
   * failed), the second on the offline speaker. Its id names this instance, as a real run's
   * names the instance generating it. `stopped`: its owner stopped it in the first speaker's
   * first round (its moderator's opening and that round kept), before any judging. `person`:
   * the second side was that person's, who wrote its rounds (a debate against a model).
   */
  finish(
    userId: string,
    topic: string,
    { stopped = false, person }: { stopped?: boolean; person?: string } = {},
  ): FinishedRun {
    const runId = `${INSTANCE_KEY}${randomUUID().slice(8)}`;
    const speakers = ['First Speaker', 'Second Speaker'] as const;
    const run: FinishedRun = {
      runId,
      topic,
      first: { model: 'gpt-4', stance: 0.6, rhetoricStyle: 'formal', personality: 'a teacher' },
      second: {
        model: person ? PERSON_MODEL_ID : OFFLINE_MODEL_ID,
        stance: -0.4,
        rhetoricStyle: 'casual',
        personality: '',
      },
      turns: [
        {
          speaker: 'Moderator',
          round: 0,
          text: 'Welcome.',
          summary: 'Opened.',
          writtenBy: modelTurn(90, 40),
          team: null,
        },
        ...[1, 2, 3].flatMap((round) =>
          speakers.map((speaker) => ({
            speaker,
            round,
            text: `${speaker}, round ${round}, on ${topic}`,
            summary: `${speaker} ${round}`,
            writtenBy:
              speaker === 'Second Speaker'
                ? person
                  ? personTurn(person, 60_000 * round)
                  : offlineTurn()
                : round === 2
                  ? modelTurn(300, 0, true)
                  : modelTurn(200 * round, 100),
            // The first speaker's model spoke as a team: its rounds carry how they were made.
            team:
              speaker === 'First Speaker' && round !== 2
                ? {
                    searched: round === 1,
                    evidence:
                      round === 1 ? [{ title: 'A study', url: 'https://example.org/study' }] : [],
                    plan: `Plan for round ${round}`,
                    review: round === 1 ? ('fixes' as const) : ('accepted' as const),
                    fixes: round === 1 ? ['Answer the cost.'] : [],
                    revised: round === 1,
                    steps: round === 1 ? 4 : 3,
                  }
                : null,
          })),
        ),
        {
          speaker: 'Moderator',
          round: 4,
          text: 'Thank you both.',
          summary: 'Closed.',
          writtenBy: modelTurn(900, 60),
          team: null,
        },
      ],
      verdict: offlineVerdict(7, 6),
      debateFormat: 'oxford',
      moderatorEnabled: true,
      rematchOf: null,
      stopped: false,
    };
    if (stopped) {
      run.turns = run.turns.slice(0, 2);
      run.verdict = null;
      run.stopped = true;
    }
    this.runs.set(runId, { userId, run });
    return run;
  }

  /** The instance restarted: it no longer has the run. */
  forget(runId: string): void {
    this.runs.delete(runId);
  }

  find(runId: string, userId: string): FinishedRun | null {
    const found = this.runs.get(runId);
    return found?.userId === userId ? found.run : null;
  }

  /** A module answering the run lookup as this stand-in says. */
  module(): DynamicModule {
    return { module: GenerationStandInModule, controllers: [controllerOf(this)] };
  }
}

function controllerOf(generation: GenerationStandIn) {
  @Controller()
  class GenerationStandInController {
    @HandleRequest(runLookupContract, { onThisInstance: true })
    get(request: ParsedRequestOf<typeof runLookupContract>): ResponseOf<typeof runLookupContract> {
      return { run: generation.find(request.runId, request.userId) };
    }
  }
  return GenerationStandInController;
}

@Module({})
class GenerationStandInModule {}
