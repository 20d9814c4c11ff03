import { SignInProvider } from '@debate/contracts';
import { Field, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { namedValues } from '../common/graphql-enum.js';

export const SignInProviderValue = namedValues(SignInProvider, {
  google: 'GOOGLE',
  github: 'GITHUB',
});
registerEnumType(SignInProviderValue, {
  name: 'SignInProvider',
  description: 'The accounts a user can sign in with besides e-mail and password.',
});

@ObjectType('Me', { description: 'The signed-in user.' })
export class MeModel {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String, { nullable: true })
  displayName!: string | null;

  @Field(() => String, { nullable: true })
  photoURL!: string | null;

  @Field(() => Boolean, { description: 'Whether the user has the PRO plan.' })
  isPro!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'When the user first signed in (ISO 8601); null if never through the platform.',
  })
  createdAt!: string | null;

  @Field(() => Boolean, {
    description:
      'Whether the address is verified (a followed link, or the provider vouched for it).',
  })
  emailVerified!: boolean;

  @Field(() => Boolean, {
    description:
      'The deployment asks for a verified address before the free debates and this one is not verified yet: browsing, voting and starring work, starting a debate does not.',
  })
  mustVerifyEmail!: boolean;
}

@ObjectType('AuthSession', {
  description:
    'A signed-in session. The refresh token is not here: the gateway keeps it in an httpOnly cookie.',
})
export class AuthSessionModel {
  @Field(() => String, { description: 'The access token; keep it in memory only.' })
  accessToken!: string;

  @Field(() => Int, { description: 'Seconds until the access token expires.' })
  expiresIn!: number;

  @Field(() => MeModel)
  user!: MeModel;
}
