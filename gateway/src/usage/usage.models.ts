import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('Usage', { description: "The signed-in user's free-debate allowance." })
export class UsageModel {
  @Field(() => Int)
  freeDebatesRemaining!: number;

  @Field(() => String, { nullable: true })
  lastDebateStarted!: string | null;

  @Field(() => Int)
  totalDebates!: number;

  @Field(() => String, { description: 'When the user first signed in (ISO 8601).' })
  memberSince!: string;

  @Field(() => Int, { description: "Tokens the models read for the user's debates (prompts)." })
  tokensIn!: number;

  @Field(() => Int, { description: "Tokens the models wrote for the user's debates." })
  tokensOut!: number;
}
