import { Field, Float, Int, ObjectType } from '@nestjs/graphql';
import {
  DebateVerdictModel,
  TeamNotesModel,
  WrittenByModel,
} from '../generation/generation.models.js';

@ObjectType('DebateSpeaker')
export class DebateSpeakerModel {
  @Field(() => String, { description: "The catalogue's id of the model the speaker was given." })
  name!: string;

  @Field(() => Float)
  stance!: number;

  @Field(() => String)
  rhetoricStyle!: string;

  @Field(() => WrittenByModel, {
    nullable: true,
    description: 'What really wrote its rounds; null for a debate saved before this was kept.',
  })
  writtenBy!: WrittenByModel | null;
}

@ObjectType('DebateRound')
export class DebateRoundModel {
  @Field(() => String, { description: "'First Speaker' or 'Second Speaker'" })
  speaker!: string;

  @Field(() => Int)
  round!: number;

  @Field(() => String)
  text!: string;

  @Field(() => String)
  summary!: string;

  @Field(() => WrittenByModel, {
    nullable: true,
    description: 'What really wrote it; null for a debate saved before this was kept.',
  })
  writtenBy!: WrittenByModel | null;

  @Field(() => TeamNotesModel, {
    nullable: true,
    description: 'How a speaker team made it; null when one completion wrote it.',
  })
  team!: TeamNotesModel | null;
}

/** What every debate type of the API has, saved or shared. */
@ObjectType({ isAbstract: true })
export abstract class DebateFieldsModel {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  topic!: string;

  @Field(() => [String])
  categories!: string[];

  @Field(() => String)
  userDisplayName!: string;

  @Field(() => Int)
  views!: number;

  @Field(() => Int, { description: 'For votes.' })
  upvotes!: number;

  @Field(() => Int, { description: 'Against votes.' })
  downvotes!: number;

  @Field(() => DebateSpeakerModel)
  model1!: DebateSpeakerModel;

  @Field(() => DebateSpeakerModel)
  model2!: DebateSpeakerModel;

  @Field(() => DebateVerdictModel, {
    nullable: true,
    description: "The judges' scorecard; null when it was not judged.",
  })
  verdict!: DebateVerdictModel | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The debate this one is the side-swapped rematch of (the same motion, format and styles, ' +
      'each model on the other side); null: not a rematch.',
  })
  rematchOf!: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether it ran with a moderator; null for a debate saved before this was kept.',
  })
  moderatorEnabled!: boolean | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      'Its author stopped it before the end: no verdict, and its last round may be cut off.',
  })
  stopped!: boolean;
}

@ObjectType('Debate', { description: 'A saved debate (private until shared).' })
export class DebateModel extends DebateFieldsModel {
  @Field(() => String, { description: 'When it was saved (ISO 8601).' })
  timestamp!: string;

  @Field(() => String, { nullable: true })
  sharedAt!: string | null;

  @Field(() => Boolean)
  isPublic!: boolean;

  @Field(() => [DebateRoundModel])
  rounds!: DebateRoundModel[];
}

@ObjectType('DebatePage')
export class DebatePageModel {
  @Field(() => [DebateModel])
  debates!: DebateModel[];

  @Field(() => Int, { description: 'How many debates match, over all pages.' })
  total!: number;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  next!: string | null;
}

@ObjectType('UnsavedDebate', {
  description: "The user's last generated debate, not saved yet, with what the engine shows of it.",
})
export class UnsavedDebateModel {
  @Field(() => String, { description: 'Its run: save it with saveDebate.' })
  runId!: string;

  @Field(() => String)
  topic!: string;

  @Field(() => DebateSpeakerModel)
  model1!: DebateSpeakerModel;

  @Field(() => DebateSpeakerModel)
  model2!: DebateSpeakerModel;

  @Field(() => [DebateRoundModel], { description: "The speakers' turns (the moderator's aside)." })
  rounds!: DebateRoundModel[];

  @Field(() => DebateVerdictModel, {
    nullable: true,
    description: "The judges' scorecard; null when the judge could not score it.",
  })
  verdict!: DebateVerdictModel | null;

  @Field(() => Boolean, { nullable: true })
  moderatorEnabled!: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'The debate it is the side-swapped rematch of; null: not a rematch.',
  })
  rematchOf!: string | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description: 'Its author stopped it before the end (stopDebate): it has no verdict.',
  })
  stopped!: boolean;
}
