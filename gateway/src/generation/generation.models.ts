import { PersonSide } from '@debate/contracts';
import { Field, Float, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { namedValues } from '../common/graphql-enum.js';

/** The contract's person's side, 'first' or 'second', as FIRST and SECOND. */
const PersonSideValue = namedValues(PersonSide.shape.speaker, {
  first: 'FIRST',
  second: 'SECOND',
});
type PersonSideValue = (typeof PersonSideValue)[keyof typeof PersonSideValue];
registerEnumType(PersonSideValue, {
  name: 'PersonSide',
  description:
    "The side the signed-in user takes in a debate against a model: the first speaker's or the second's.",
});

@ObjectType('SpeakerModelRef', {
  description: 'A model of the catalogue, as a speaker is given it.',
})
export class SpeakerModelRefModel {
  @Field(() => String, {
    description: "The catalogue's id, what SpeakerSettingsInput.model takes.",
  })
  id!: string;

  @Field(() => String, { description: "What the engine page calls it, e.g. 'Offline speaker'." })
  label!: string;

  @Field(() => String, {
    description: "'model' (an AI model on a server), 'offline', or 'person' (a person's side).",
  })
  kind!: string;
}

@ObjectType('WrittenBy', {
  description:
    "What really wrote a turn, or all of a speaker's turns: the model of the catalogue or the offline speaker, the model the server reported, tokens, timings. For a speaker, tokens and totalMs are sums over its turns and firstTokenMs their mean.",
})
export class WrittenByModel {
  @Field(() => String, {
    description: "'model', 'offline', or 'person' (a person wrote it: label is their name).",
  })
  kind!: string;

  @Field(() => String, {
    description: "The catalogue's model id ('offline' for the offline speaker).",
  })
  modelId!: string;

  @Field(() => String, { description: "The model's label when it wrote ('Offline speaker')." })
  label!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'The model id the server reported in its answer; null offline or when it said none.',
  })
  serverModel!: string | null;

  @Field(() => Int, { nullable: true, description: "Prompt tokens, from the stream's usage." })
  tokensIn!: number | null;

  @Field(() => Int, { nullable: true, description: "Completion tokens, from the stream's usage." })
  tokensOut!: number | null;

  @Field(() => Float, { nullable: true, description: 'Time to the first token, in milliseconds.' })
  firstTokenMs!: number | null;

  @Field(() => Float, { description: 'The whole time of the turn(s), in milliseconds.' })
  totalMs!: number;

  @Field(() => Int)
  turns!: number;

  @Field(() => Int, { description: "Turns the model failed (they carry the spec's error text)." })
  failedTurns!: number;
}

@ObjectType('VerdictScore', { description: "One speaker's score on one criterion." })
export class VerdictScoreModel {
  @Field(() => String, { description: "'First Speaker' or 'Second Speaker'" })
  speaker!: string;

  @Field(() => String, {
    description: 'argument (weight 3), evidence (2), rebuttal (2) or clarity (1).',
  })
  criterion!: string;

  @Field(() => Float, { description: '1 to 10: the mean of the two readings.' })
  score!: number;

  @Field(() => String, { description: "The judge's one-sentence reason (its first reading)." })
  reason!: string;
}

@ObjectType('VerdictReading', {
  description: 'One reading of the debate: as given, or with the speakers swapped.',
})
export class VerdictReadingModel {
  @Field(() => String, { description: "'as_given' or 'swapped'" })
  order!: string;

  @Field(() => String, { nullable: true, description: 'The winner it named; null: a tie.' })
  winner!: string | null;

  @Field(() => Float)
  firstTotal!: number;

  @Field(() => Float)
  secondTotal!: number;
}

@ObjectType('DebateVerdict', {
  description:
    "The judges' scorecard: read twice, the second time with the speakers' order and labels swapped; a tie when the readings disagree.",
})
export class DebateVerdictModel {
  @Field(() => String, { nullable: true, description: 'The winning speaker; null: a tie.' })
  winner!: string | null;

  @Field(() => Boolean)
  tie!: boolean;

  @Field(() => String, {
    nullable: true,
    description: "Why a tie: 'readings_disagree' or 'judged_even'.",
  })
  tieReason!: string | null;

  @Field(() => Float, { description: "The First Speaker's weighted total, at most 80." })
  firstTotal!: number;

  @Field(() => Float, { description: "The Second Speaker's weighted total, at most 80." })
  secondTotal!: number;

  @Field(() => [VerdictScoreModel])
  scores!: VerdictScoreModel[];

  @Field(() => [VerdictReadingModel])
  readings!: VerdictReadingModel[];

  @Field(() => WrittenByModel, { description: 'The judge, its tokens and its time.' })
  judgedBy!: WrittenByModel;
}

@InputType('SpeakerSettingsInput')
export class SpeakerSettingsInput {
  @Field(() => String, { description: "The id of one of the catalog's models." })
  model!: string;

  @Field(() => Float, { description: '-1 (against) to 1 (for), in steps of 0.1.' })
  stance!: number;

  @Field(() => String, { description: 'One of the catalog rhetoric styles.' })
  rhetoricStyle!: string;

  @Field(() => String, { defaultValue: '', description: 'Personality hints for the speaker.' })
  personality!: string;
}

@InputType('DebateSettingsInput')
export class DebateSettingsInput {
  @Field(() => String, { description: 'The motion, 1 to 500 characters.' })
  topic!: string;

  @Field(() => String, { description: 'One of the catalog debate formats.' })
  debateFormat!: string;

  @Field(() => Boolean)
  moderatorEnabled!: boolean;

  @Field(() => SpeakerSettingsInput)
  first!: SpeakerSettingsInput;

  @Field(() => SpeakerSettingsInput)
  second!: SpeakerSettingsInput;

  @Field(() => PersonSideValue, {
    nullable: true,
    description:
      "Set: the signed-in user writes this side's turns against the other side's model (its SpeakerSettingsInput.model is 'person'); their display name is taken from their account. Null: two models.",
  })
  person?: PersonSideValue | null;
}

@ObjectType('Evidence', { description: "A source a speaker team's searcher found." })
export class EvidenceModel {
  @Field(() => String)
  title!: string;

  @Field(() => String, { description: 'Its link (http or https).' })
  url!: string;
}

@ObjectType('TeamNotes', {
  description:
    "How a speaker team made a speech (the analyzer's plan, the reviewer's fixes, the writer's revision); shown as 'How this speech was made'.",
})
export class TeamNotesModel {
  @Field(() => Boolean, {
    description: 'Whether its searcher ran (a search backend is configured).',
  })
  searched!: boolean;

  @Field(() => [EvidenceModel], {
    description:
      'The sources its searcher found, cited in the speech as [n]; empty when no search backend is configured (or the search failed).',
  })
  evidence!: EvidenceModel[];

  @Field(() => String, { description: "The analyzer's plan for the round." })
  plan!: string;

  @Field(() => String, {
    description:
      "What the reviewer did: 'accepted' the draft, asked for 'fixes', or 'failed' to review it (the draft stands).",
  })
  review!: string;

  @Field(() => [String], {
    description: "The reviewer's fixes (at most 3); empty unless it asked for fixes.",
  })
  fixes!: string[];

  @Field(() => Boolean, { description: "Whether the speech is the writer's revision." })
  revised!: boolean;

  @Field(() => Int, {
    description: "How many steps the team took: its searcher's and each completion.",
  })
  steps!: number;
}

@ObjectType('DebateRunEvent', {
  description:
    "One event of a run, in order (seq). type: runStarted, turnStarted, turnAwaiting (a person's turn: the run waits for submitTurn), turnStage, textDelta, turnCompleted, judgingStarted, verdictReady, runCompleted, runFailed or runStopped; the fields that type carries are set, the others null.",
})
export class DebateRunEventModel {
  @Field(() => String)
  type!: string;

  @Field(() => Int)
  seq!: number;

  @Field(() => Float, { description: 'When the run recorded the event (ms since the epoch).' })
  at!: number;

  @Field(() => String, { nullable: true })
  runId!: string | null;

  @Field(() => String, { nullable: true })
  topic!: string | null;

  @Field(() => SpeakerModelRefModel, {
    nullable: true,
    description: "runStarted: the first speaker's model (the moderator's too).",
  })
  firstModel!: SpeakerModelRefModel | null;

  @Field(() => SpeakerModelRefModel, {
    nullable: true,
    description: "runStarted: the second speaker's model.",
  })
  secondModel!: SpeakerModelRefModel | null;

  @Field(() => SpeakerModelRefModel, {
    nullable: true,
    description: 'turnStarted: the model about to write the turn.',
  })
  model!: SpeakerModelRefModel | null;

  @Field(() => Float, { nullable: true })
  firstStance!: number | null;

  @Field(() => Float, { nullable: true })
  secondStance!: number | null;

  @Field(() => Int, { nullable: true })
  turn!: number | null;

  @Field(() => String, { nullable: true })
  speaker!: string | null;

  @Field(() => Int, { nullable: true })
  round!: number | null;

  @Field(() => String, { nullable: true })
  roundTitle!: string | null;

  @Field(() => String, { nullable: true, description: 'A piece of text, or the whole turn.' })
  text!: string | null;

  @Field(() => String, { nullable: true })
  summary!: string | null;

  @Field(() => Boolean, { nullable: true })
  failed!: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'turnCompleted: the run was stopped while this turn was being written; its text is what was written until then.',
  })
  cutOff!: boolean | null;

  @Field(() => WrittenByModel, { nullable: true, description: 'turnCompleted: what wrote it.' })
  writtenBy!: WrittenByModel | null;

  @Field(() => String, {
    nullable: true,
    description:
      "turnStage: a team's turn moved on to analyzing, writing, reviewing or revising (at revising its words start again).",
  })
  stage!: string | null;

  @Field(() => TeamNotesModel, {
    nullable: true,
    description: 'turnCompleted: how a speaker team made it; null when one completion wrote it.',
  })
  team!: TeamNotesModel | null;

  @Field(() => SpeakerModelRefModel, {
    nullable: true,
    description: 'judgingStarted: the judge about to read the debate.',
  })
  judge!: SpeakerModelRefModel | null;

  @Field(() => DebateVerdictModel, {
    nullable: true,
    description: "verdictReady: the judges' scorecard.",
  })
  verdict!: DebateVerdictModel | null;

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "runStopped: whether the run used a free debate (once a speaker's turn was complete); otherwise it was given back.",
  })
  freeDebateUsed!: boolean | null;

  @Field(() => Int, {
    nullable: true,
    description: "turnAwaiting: the fewest words the person's turn may have.",
  })
  minWords!: number | null;

  @Field(() => Int, {
    nullable: true,
    description: "turnAwaiting: the most words the person's turn may have.",
  })
  maxWords!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "turnAwaiting: when (ISO time) the run ends, stopped as 'timedOut', if the turn was not submitted.",
  })
  deadline!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "runStopped: 'owner' (stopDebate) or 'timedOut' (the person's turn was not submitted in time).",
  })
  stopReason!: string | null;
}

@ObjectType('StopDebateResult', { description: 'What stopDebate did.' })
export class StopDebateResultModel {
  @Field(() => Boolean, {
    description: 'Whether this stopped the run; false when it had ended already (nothing changed).',
  })
  stopped!: boolean;

  @Field(() => Boolean, {
    description:
      "Whether the run used a free debate: yes once a speaker's turn was complete, else it was given back.",
  })
  freeDebateUsed!: boolean;
}
