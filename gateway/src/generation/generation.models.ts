import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';

@InputType('SpeakerSettingsInput')
export class SpeakerSettingsInput {
  @Field(() => String, { description: 'One of the catalog models.' })
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
}

@ObjectType('DebateRunEvent', {
  description:
    'One event of a run, in order (seq). type: runStarted, turnStarted, textDelta, turnCompleted, runCompleted or runFailed; the fields that type carries are set, the others null.',
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

  @Field(() => String, { nullable: true, description: "'openai' or 'offline'" })
  speakerKind!: string | null;

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

  @Field(() => String, { nullable: true })
  message!: string | null;
}
