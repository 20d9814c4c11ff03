import { FREE_DEBATE_REFILL_DAYS } from '@debate/contracts';
import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('Usage', { description: "The signed-in user's free-debate allowance." })
export class UsageModel {
  @Field(() => Int)
  freeDebatesRemaining!: number;

  @Field(() => String, { nullable: true })
  lastDebateStarted!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      `When the next free debate comes (ISO 8601): once more than ${FREE_DEBATE_REFILL_DAYS} days ` +
      'have passed since the last debate started. Null while a free debate is left, before any ' +
      'debate, and for the test account (reset daily).',
  })
  nextFreeDebateAt!: string | null;

  @Field(() => Int)
  totalDebates!: number;

  @Field(() => String, { description: 'When the user first signed in (ISO 8601).' })
  memberSince!: string;

  @Field(() => Int, { description: "Tokens the models read for the user's debates (prompts)." })
  tokensIn!: number;

  @Field(() => Int, { description: "Tokens the models wrote for the user's debates." })
  tokensOut!: number;
}
