import { Field, Float, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('JudgeFigure', {
  description:
    "One figure of the judges' record: its value, its 95% interval and how many observations it " +
    'is computed from. Value, low and high are null when there is nothing (or too little) to ' +
    'compute them from.',
})
export class JudgeFigureModel {
  @Field(() => Float, { nullable: true })
  value!: number | null;

  @Field(() => Float, { nullable: true, description: 'The low end of the 95% interval.' })
  low!: number | null;

  @Field(() => Float, { nullable: true, description: 'The high end of the 95% interval.' })
  high!: number | null;

  @Field(() => Int, {
    description: 'How many observations it is computed from: debates, or pairs of judges.',
  })
  count!: number;
}

@ObjectType('ReaderAgreement', {
  description: "How often a judge's winner is the readers' side, and Cohen's kappa of the two.",
})
export class ReaderAgreementModel {
  @Field(() => JudgeFigureModel, {
    description: "The share of debates whose judge's winner is the readers' side.",
  })
  agreement!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, { description: "Cohen's kappa: the agreement beyond chance." })
  kappa!: JudgeFigureModel;
}

@ObjectType('JudgeRecord', {
  description:
    "One judge's record over the shared debates it judged, or every judge's together (judgeId null).",
})
export class JudgeRecordModel {
  @Field(() => String, {
    nullable: true,
    description: "The judge's catalogue model id; null: every judge together.",
  })
  judgeId!: string | null;

  @Field(() => String, { description: "The judge's name, or 'All judges'." })
  label!: string;

  @Field(() => String, {
    nullable: true,
    description: "'model' (an AI model on a server) or 'offline' (the offline judge); null: all.",
  })
  kind!: string | null;

  @Field(() => Int, { description: 'The shared debates it judged.' })
  debates!: number;

  @Field(() => JudgeFigureModel, {
    description:
      'The share of its debates whose two readings, sides swapped, named the same winner.',
  })
  positionConsistency!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, {
    description:
      'How many points (of 80) more it gave the side it read first than the other, on average.',
  })
  firstShownMargin!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, {
    description:
      'Over the debates it read with other judges: the share of pairs of judges naming the same winner.',
  })
  pairwiseAgreement!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, {
    description: "Over the debates it read with other judges: Fleiss' kappa of their winners.",
  })
  fleissKappa!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, {
    description:
      "On the debates its own model spoke in: its margin (points) for its model's side, less the " +
      "other judges' mean margin for it.",
  })
  selfPreference!: JudgeFigureModel;

  @Field(() => JudgeFigureModel, {
    description:
      'Length bias: the slope of a logistic fit of its decisive verdicts (First Speaker won) on ' +
      'the words First Speaker wrote more than Second, per 100 words (log-odds).',
  })
  lengthSlope!: JudgeFigureModel;

  @Field(() => ReaderAgreementModel, {
    description: 'Its winner against the side the readers moved toward (minds changed).',
  })
  readersMinds!: ReaderAgreementModel;

  @Field(() => ReaderAgreementModel, {
    description: "Its winner against the side the readers' For and Against votes favour.",
  })
  readersVotes!: ReaderAgreementModel;
}

@ObjectType('JudgesReport', {
  description:
    "The judges' record as the community service last computed it, in the background, from the " +
    'judged shared debates: every judge, most debates first, and all judges together.',
})
export class JudgesReportModel {
  @Field(() => [JudgeRecordModel])
  judges!: JudgeRecordModel[];

  @Field(() => JudgeRecordModel, { description: "Every judge's record together: 'All judges'." })
  all!: JudgeRecordModel;

  @Field(() => Int, { description: 'The judged shared debates it was computed from.' })
  debates!: number;

  @Field(() => Int, { description: 'How many bootstrap rounds the kappa intervals come from.' })
  bootstrapRounds!: number;

  @Field(() => String, {
    nullable: true,
    description: 'When it was computed (ISO 8601); null before the first computation.',
  })
  computedAt!: string | null;
}
