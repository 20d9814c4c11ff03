import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module } from '@nestjs/common';
import {
  Field,
  GraphQLModule,
  GraphQLSchemaHost,
  ObjectType,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { MercuriusDriver } from '@nestjs/mercurius';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { assertObjectType } from 'graphql';
import { withPlainFieldsInlined } from './graphql.module.js';
import { startGraphqlApp } from './graphql-app.spec-support.js';

@ObjectType()
class Card {
  @Field(() => String)
  title!: string;

  @Field(() => String, { nullable: true })
  note?: string | null;

  @Field(() => String, { defaultValue: 'none' })
  label?: string;

  @Field(() => String)
  shout!: string;
}

@Resolver(() => Card)
class CardResolver {
  @Query(() => [Card])
  cards(): Array<Omit<Card, 'shout'>> {
    return [{ title: 'first', note: 'kept' }, { title: 'second' }];
  }

  @ResolveField(() => String)
  shout(@Parent() card: Card): string {
    return card.title.toUpperCase();
  }
}

// The schema as Mercurius (jit: 1) runs it, behind the transform.
describe('withPlainFieldsInlined', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    @Module({
      imports: [
        GraphQLModule.forRoot({
          driver: MercuriusDriver,
          autoSchemaFile: true,
          jit: 1,
          transformSchema: withPlainFieldsInlined,
        }),
      ],
      providers: [CardResolver],
    })
    class CardModule {}
    ({ app, url } = await startGraphqlApp(CardModule));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('drops the resolvers NestJS gives plain fields, and keeps the others', () => {
    const fields = assertObjectType(app.get(GraphQLSchemaHost).schema.getType('Card')).getFields();
    expect(fields['title']?.resolve).toBeUndefined();
    expect(fields['note']?.resolve).toBeUndefined();
    // a default value and a resolver of its own are the fields' own behaviour
    expect(fields['label']?.resolve).toBeDefined();
    expect(fields['shout']?.resolve).toBeDefined();
  });

  it('answers the same, compiled or not', async () => {
    const ask = async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ cards { title note label shout } }' }),
      });
      return (await response.json()) as unknown;
    };
    const expected = {
      data: {
        cards: [
          { title: 'first', note: 'kept', label: 'none', shout: 'FIRST' },
          { title: 'second', note: null, label: 'none', shout: 'SECOND' },
        ],
      },
    };
    // the first time interpreted, from the second on compiled by graphql-jit
    for (let i = 0; i < 3; i += 1) expect(await ask()).toEqual(expected);
  });
});
