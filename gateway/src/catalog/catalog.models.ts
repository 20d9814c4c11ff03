import { Field, Float, ObjectType } from '@nestjs/graphql';
import { SpeakerModelRefModel } from '../generation/generation.models.js';

@ObjectType('SpeakerModel', { description: 'A model a speaker can be given.' })
export class SpeakerModelModel extends SpeakerModelRefModel {
  @Field(() => String, {
    description: "'ok', or 'degraded' when its last turns all failed (it is still offered).",
  })
  status!: string;

  @Field(() => String, {
    description:
      "'single' (each speech in one pass) or 'team' (an analyzer plans, a writer writes, a reviewer checks, the writer revises once).",
  })
  speakerMode!: string;
}

@ObjectType('LocalModel', {
  description:
    'The model the platform runs itself (the embedded model server), on its way to being offered.',
})
export class LocalModelModel {
  @Field(() => String, {
    description:
      "'downloading', 'loading', 'ready' (offered first in models, as 'Local: <name>') or 'failed' (not offered).",
  })
  status!: string;

  @Field(() => String, {
    description:
      "Its name for people, e.g. 'Qwen2.5 1.5B Instruct'; empty until its server has answered.",
  })
  name!: string;

  @Field(() => Float, {
    nullable: true,
    description: 'While downloading: the fraction fetched, 0 to 1; null when the size is unknown.',
  })
  progress!: number | null;
}

@ObjectType('Catalog', { description: 'What the engine page offers, owned by the services.' })
export class CatalogModel {
  @Field(() => [String], { description: 'The ten community categories.' })
  categories!: string[];

  @Field(() => [String])
  rhetoricStyles!: string[];

  @Field(() => [String])
  debateFormats!: string[];

  @Field(() => [SpeakerModelModel], {
    description:
      "The local model once ready, the operator's models, then the offline speaker; the first is the default.",
  })
  models!: SpeakerModelModel[];

  @Field(() => Boolean, {
    description:
      'Whether speaker teams search the web for evidence (a search backend is configured).',
  })
  searcher!: boolean;

  @Field(() => LocalModelModel, {
    nullable: true,
    description:
      'The local model, while it downloads or loads and after; null when the platform runs none.',
  })
  localModel!: LocalModelModel | null;

  @Field(() => [String], { description: 'Round 1, 2 and 3, in order.' })
  roundTitles!: string[];

  @Field(() => [String], { description: 'The built-in topics the random-topic button draws from.' })
  topics!: string[];
}
