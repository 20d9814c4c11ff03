import { RankingPeriod, RankingSort, VoteKind } from '@debate/contracts';
import { Field, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { namedValues } from '../common/graphql-enum.js';
import { DebateFieldsModel, DebateRoundModel } from '../debates/debates.models.js';

/** The contract's vote kinds, which are their own names. */
export const VoteKindValue = VoteKind.enum;
registerEnumType(VoteKindValue, { name: 'VoteKind', description: 'One vote per user per debate.' });

export const RankingSortValue = namedValues(RankingSort, {
  popular: 'MOST_POPULAR',
  recent: 'MOST_RECENT',
  controversial: 'MOST_CONTROVERSIAL',
});
registerEnumType(RankingSortValue, {
  name: 'RankingSort',
  description:
    'Most Popular: Wilson lower bound of For against Against; Most Recent: sharedAt; ' +
    'Most Controversial: (For + Against) ^ (min / max), 0 unless both have votes.',
});

export const RankingPeriodValue = namedValues(RankingPeriod, {
  all: 'ALL_TIME',
  today: 'TODAY',
  week: 'THIS_WEEK',
  month: 'THIS_MONTH',
});
registerEnumType(RankingPeriodValue, {
  name: 'RankingPeriod',
  description: "Today starts at the viewer's midnight (utcOffsetMinutes); a week is 7 days.",
});

@ObjectType('CommunityDebate', { description: 'A shared debate as a ranking card shows it.' })
export class CommunityDebateModel extends DebateFieldsModel {
  @Field(() => String, { description: 'When it was shared (ISO 8601).' })
  sharedAt!: string;

  @Field(() => Int, { description: 'Interesting votes.' })
  interesting!: number;

  @Field(() => VoteKindValue, { nullable: true, description: "The viewer's own vote." })
  myVote!: VoteKind | null;

  @Field(() => Boolean, { description: 'Starred by the viewer.' })
  starred!: boolean;
}

@ObjectType('CommunityDebatePage')
export class CommunityDebatePageModel {
  @Field(() => [CommunityDebateModel])
  debates!: CommunityDebateModel[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  next!: string | null;
}

@ObjectType('PublicDebate', { description: 'A shared debate with its rounds.' })
export class PublicDebateModel extends DebateFieldsModel {
  @Field(() => String, { description: 'When it was saved (ISO 8601).' })
  timestamp!: string;

  // A public copy exists because its debate was shared: it always has the moment.
  @Field(() => String, { description: 'When it was shared (ISO 8601).' })
  sharedAt!: string;

  @Field(() => Boolean)
  isPublic!: boolean;

  @Field(() => [DebateRoundModel])
  rounds!: DebateRoundModel[];

  @Field(() => Int)
  interesting!: number;
}

@ObjectType('VoteResult', { description: "A debate's counts after a vote, and the voter's vote." })
export class VoteResultModel {
  @Field(() => String)
  debateId!: string;

  @Field(() => Int)
  upvotes!: number;

  @Field(() => Int)
  downvotes!: number;

  @Field(() => Int)
  interesting!: number;

  @Field(() => VoteKindValue, { nullable: true })
  myVote!: VoteKind | null;
}
