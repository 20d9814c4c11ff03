import { LeaderboardRowKind, LeaderboardSubject } from '@debate/contracts';
import { Field, Float, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

/** The contract's subjects, which are their own names. */
export const LeaderboardSubjectValue = LeaderboardSubject.enum;
registerEnumType(LeaderboardSubjectValue, {
  name: 'LeaderboardSubject',
  description:
    'MODEL: the models that really wrote the debates; SETUP: each model as one completion or as a ' +
    'speaker team; STYLE: the rhetoric styles of the speakers; PEOPLE: the people who debated a ' +
    'model, against the models.',
});

const LeaderboardRowKindValue = LeaderboardRowKind.enum;
registerEnumType(LeaderboardRowKindValue, {
  name: 'LeaderboardRowKind',
  description:
    "A People board row that is no model: PERSON, a listed person; PEOPLE, every person's side pooled.",
});

@ObjectType('AudienceRating', {
  description: "A rating from the audience's minds-changed winners, with its 95% interval.",
})
export class AudienceRatingModel {
  @Field(() => Float)
  rating!: number;

  @Field(() => Float, { description: 'The 2.5% quantile of the bootstrap rounds.' })
  low!: number;

  @Field(() => Float, { description: 'The 97.5% quantile of the bootstrap rounds.' })
  high!: number;

  @Field(() => Int, { description: 'Its debates with a minds-changed winner.' })
  debates!: number;
}

@ObjectType('LeaderboardRow', {
  description:
    "A model, setup, style or person: its rating from the judges' verdicts (Bradley-Terry, ties half a win, " +
    '1000 + 400·log10 strength) with a 95% bootstrap interval.',
})
export class LeaderboardRowModel {
  @Field(() => String, {
    description:
      "The model's catalogue id, the setup or the style; on the People board a listed person's " +
      "'person:' and a hash (never the account's id), or 'people'.",
  })
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => Float)
  rating!: number;

  @Field(() => Float, { description: 'The 2.5% quantile of the bootstrap rounds.' })
  low!: number;

  @Field(() => Float, { description: 'The 97.5% quantile of the bootstrap rounds.' })
  high!: number;

  @Field(() => Int, { description: 'The debates it was rated on.' })
  debates!: number;

  @Field(() => Int, { description: 'The completed side-swapped pairs among them.' })
  pairs!: number;

  @Field(() => AudienceRatingModel, {
    nullable: true,
    description: 'Null when none of its debates has a minds-changed winner.',
  })
  audience!: AudienceRatingModel | null;

  @Field(() => LeaderboardRowKindValue, {
    nullable: true,
    description: 'Null: a model, setup or style.',
  })
  kind!: LeaderboardRowKind | null;
}

@ObjectType('LeaderboardNotRated')
export class LeaderboardNotRatedModel {
  @Field(() => Int, { description: 'Judged debates whose two sides are the same subject.' })
  sameSubject!: number;

  @Field(() => Int, {
    description:
      'Judged debates saved before what wrote a speaker, or whether it had personality hints, was kept.',
  })
  notRecorded!: number;

  @Field(() => Int, { description: 'Judged debates with a speaker given personality hints.' })
  personalityHints!: number;

  @Field(() => Int, {
    description:
      'Judged debates past the first LEADERBOARD_DAILY_LIMIT of their author and pairing that UTC day.',
  })
  dailyLimit!: number;

  // Kept for the web app of the last version: a page loaded before an upgrade still asks for it.
  @Field(() => Int, {
    deprecationReason: 'Use notRecorded, which it equals.',
    description: 'Judged debates with a speaker whose writer was not kept: notRecorded.',
  })
  unknownWriter!: number;
}

@ObjectType('Leaderboard', {
  description:
    'A board as the community service last computed it, in the background: rows best first.',
})
export class LeaderboardModel {
  @Field(() => LeaderboardSubjectValue)
  subject!: LeaderboardSubject;

  @Field(() => Boolean, { description: 'Only debates in completed side-swapped pairs.' })
  pairsOnly!: boolean;

  @Field(() => Boolean, {
    description:
      "Controlled for length and for where the room started: the judges' ratings from Bradley-Terry " +
      "with the sides' word-count difference as a covariate (LMArena's style control), the " +
      "audience's from each side's gain relative to its room to grow (Marx and Cummings' normalized change).",
  })
  controlled!: boolean;

  @Field(() => [LeaderboardRowModel], { description: 'From the debates models wrote.' })
  rows!: LeaderboardRowModel[];

  @Field(() => [LeaderboardRowModel], {
    description: 'From the debates with a speaker written by the offline speaker, rated apart.',
  })
  apart!: LeaderboardRowModel[];

  @Field(() => Int)
  debates!: number;

  @Field(() => Int)
  apartDebates!: number;

  @Field(() => LeaderboardNotRatedModel)
  notRated!: LeaderboardNotRatedModel;

  @Field(() => Int, { description: 'How many bootstrap rounds each interval comes from.' })
  bootstrapRounds!: number;

  @Field(() => String, {
    nullable: true,
    description: 'When it was computed (ISO 8601); null before the first computation.',
  })
  computedAt!: string | null;
}

@ObjectType('PeopleListing', {
  description: "The user's listing on the People board (they are shown from three rated debates).",
})
export class PeopleListingModel {
  @Field(() => Boolean)
  listed!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The name shown on the People board while listed.',
  })
  name!: string | null;

  @Field(() => Int, {
    description: "The user's shared debates against a model the board has rated.",
  })
  ratedDebates!: number;
}
