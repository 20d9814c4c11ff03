import {
  BeforeAnswer,
  DebateRating,
  debateRatingTexts,
  type MindsChanged,
  RankingPeriod,
  RankingSort,
  StanceBefore,
  type ViewerMarks,
  VoteKind,
} from '@debate/contracts';
import { Field, Float, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { namedValues } from '../common/graphql-enum.js';
import {
  DebateFieldsModel,
  DebateRoundModel,
  DebateSpeakerModel,
} from '../debates/debates.models.js';
import { DebateVerdictModel } from '../generation/generation.models.js';

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

/** The contract's stances before reading, which are their own names. */
export const StanceBeforeValue = StanceBefore.enum;
registerEnumType(StanceBeforeValue, {
  name: 'StanceBefore',
  description: 'Where a reader stands on the motion before reading the debate.',
});

/** A reader's answer before reading: a stance, or SKIPPED. */
const BeforeAnswerValue = BeforeAnswer.enum;
registerEnumType(BeforeAnswerValue, {
  name: 'BeforeAnswer',
  description: "A reader's answer to 'where do you stand?' before reading: a stance or SKIPPED.",
});

@ObjectType('StanceShares', { description: 'Shares of the readers, in percent (one decimal).' })
export class StanceSharesModel {
  @Field(() => Float)
  for!: number;

  @Field(() => Float)
  against!: number;

  @Field(() => Float, { nullable: true, description: 'Before reading only; null after.' })
  undecided!: number | null;
}

@ObjectType('GainedReaders', {
  description: 'How many readers each side gained: after less before (negative: it lost some).',
})
export class GainedReadersModel {
  @Field(() => Int)
  for!: number;

  @Field(() => Int)
  against!: number;
}

@ObjectType('MindsChangedShares')
export class MindsChangedSharesModel {
  @Field(() => StanceSharesModel)
  before!: StanceSharesModel;

  @Field(() => StanceSharesModel)
  after!: StanceSharesModel;

  @Field(() => StanceSharesModel, {
    description: "Each side's gain in percentage points, after minus before (undecided: null).",
  })
  gain!: StanceSharesModel;

  @Field(() => GainedReadersModel, {
    description: "Each side's gain in readers, after less before ('For gained 4 minds').",
  })
  gainedReaders!: GainedReadersModel;

  @Field(() => String, { description: "'FOR', 'AGAINST' or 'TIE': the side that gained more." })
  winner!: string;
}

@ObjectType('MindsChanged', {
  description:
    'Among readers who said where they stood before reading and voted For or Against after: ' +
    "the shares before and after, each side's gain, the room's winner by gain.",
})
export class MindsChangedModel {
  @Field(() => Int, { description: 'Readers who gave both.' })
  readers!: number;

  @Field(() => MindsChangedSharesModel, {
    nullable: true,
    description: 'Null below 5 readers: only their number is shown.',
  })
  shares!: MindsChangedSharesModel | null;
}

/** The contract's minds changed as the API shows it (undecided null where it has none). */
export function mindsChangedModel(minds: MindsChanged): MindsChangedModel {
  const { readers, shares } = minds;
  if (!shares) return { readers, shares: null };
  return {
    readers,
    shares: {
      before: shares.before,
      after: { ...shares.after, undecided: null },
      gain: { ...shares.gain, undecided: null },
      gainedReaders: shares.gainedReaders,
      winner: shares.winner,
    },
  };
}

/** The contract's ratings, which are their own names. */
const DebateRatingValue = DebateRating.enum;
registerEnumType(DebateRatingValue, {
  name: 'DebateRatingStatus',
  description:
    'Whether the leaderboard rates a shared debate (RATED), or why not: NOT_JUDGED, ' +
    'NOT_RECORDED (saved before its writers or personality hints were kept), ' +
    'PERSONALITY_HINTS, DAILY_LIMIT (its author shared more of the pairing that UTC day).',
});

@ObjectType('DebateRating', {
  description: 'Whether the leaderboard rates the debate, or why not.',
})
export class DebateRatingModel {
  @Field(() => DebateRatingValue)
  status!: DebateRating;

  @Field(() => String, { description: "What the card says: 'Rated', or 'Not rated: …' and why." })
  text!: string;
}

/** A debate's rating as the API shows it; null until the leaderboard has read the debate. */
export function debateRatingModel(rating: DebateRating | null): DebateRatingModel | null {
  return rating ? { status: rating, text: debateRatingTexts[rating] } : null;
}

const ratingDescription =
  'Whether the leaderboard rates it, or why not; null just after it was shared, until the ' +
  'leaderboard has read it.';

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

  @Field(() => MindsChangedModel)
  mindsChanged!: MindsChangedModel;

  @Field(() => Boolean, {
    description:
      "One of the examples the platform seeded (the offline speaker wrote it), not a person's debate.",
  })
  example!: boolean;

  @Field(() => DebateRatingModel, { nullable: true, description: ratingDescription })
  rating!: DebateRatingModel | null;
}

@ObjectType('CommunityDebatePage')
export class CommunityDebatePageModel {
  @Field(() => [CommunityDebateModel])
  debates!: CommunityDebateModel[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  next!: string | null;
}

@ObjectType('PairedDebate', {
  description:
    'The other debate of a side-swapped pair: the same motion, each model on the other side.',
})
export class PairedDebateModel {
  @Field(() => String)
  id!: string;

  @Field(() => String, { description: 'When it was shared (ISO 8601).' })
  sharedAt!: string;

  @Field(() => DebateSpeakerModel)
  model1!: DebateSpeakerModel;

  @Field(() => DebateSpeakerModel)
  model2!: DebateSpeakerModel;

  @Field(() => DebateVerdictModel, { nullable: true })
  verdict!: DebateVerdictModel | null;

  @Field(() => Boolean, { description: 'It is the rematch (else the debate this one rematches).' })
  isRematch!: boolean;
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

  @Field(() => MindsChangedModel)
  mindsChanged!: MindsChangedModel;

  @Field(() => Boolean, {
    description:
      "One of the examples the platform seeded (the offline speaker wrote it), not a person's debate.",
  })
  example!: boolean;

  @Field(() => DebateRatingModel, { nullable: true, description: ratingDescription })
  rating!: DebateRatingModel | null;

  @Field(() => VoteKindValue, { nullable: true, description: "The signed-in reader's vote." })
  myVote!: VoteKind | null;

  @Field(() => BeforeAnswerValue, {
    nullable: true,
    description: "The signed-in reader's answer before reading; null: not given.",
  })
  standBefore!: ViewerMarks['standBefore'];

  @Field(() => Boolean, {
    description:
      'Whether to ask the signed-in reader where they stand before showing the rounds: not ' +
      'answered or skipped yet, not voted, not the author. False signed out.',
  })
  askBefore!: boolean;

  @Field(() => PairedDebateModel, {
    nullable: true,
    description: 'The other half of its side-swapped pair, when that one is shared too.',
  })
  pairedWith!: PairedDebateModel | null;
}

@ObjectType('StandBeforeResult', { description: "A reader's answer before reading, recorded." })
export class StandBeforeResultModel {
  @Field(() => String)
  debateId!: string;

  @Field(() => BeforeAnswerValue)
  standBefore!: NonNullable<ViewerMarks['standBefore']>;

  @Field(() => MindsChangedModel)
  mindsChanged!: MindsChangedModel;
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

  @Field(() => MindsChangedModel)
  mindsChanged!: MindsChangedModel;
}
