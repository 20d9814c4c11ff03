import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType('Catalog', { description: 'What the engine page offers, owned by the services.' })
export class CatalogModel {
  @Field(() => [String], { description: 'The ten community categories.' })
  categories!: string[];

  @Field(() => [String])
  rhetoricStyles!: string[];

  @Field(() => [String])
  debateFormats!: string[];

  @Field(() => [String], { description: 'The speaker models a user can pick.' })
  models!: string[];

  @Field(() => [String], { description: 'Round 1, 2 and 3, in order.' })
  roundTitles!: string[];

  @Field(() => [String], { description: 'The built-in topics the random-topic button draws from.' })
  topics!: string[];
}
