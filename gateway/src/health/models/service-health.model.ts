import { Field, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum ServiceStatus {
  up = 'up',
  down = 'down',
}
registerEnumType(ServiceStatus, { name: 'ServiceStatus' });

@ObjectType('ServiceHealth', { description: 'Whether one service answered its health check.' })
export class ServiceHealthModel {
  @Field({ description: 'identity, usage, generation, debates or community.' })
  service!: string;

  @Field(() => ServiceStatus)
  status!: ServiceStatus;

  @Field(() => Int, { nullable: true, description: 'How long the answer took, when it came.' })
  latencyMs!: number | null;

  @Field(() => String, { nullable: true, description: 'Why the service counts as down.' })
  reason!: string | null;
}
