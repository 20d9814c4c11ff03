import { SetMetadata } from '@nestjs/common';

export const AUTH_DECISION = 'debate:auth-decision';
export type AuthDecision = 'public' | 'authenticated';

/** Anyone may call this, signed in or not. */
export const Public = () => SetMetadata(AUTH_DECISION, 'public' satisfies AuthDecision);

/** Only a signed-in user may call this. */
export const Authenticated = () =>
  SetMetadata(AUTH_DECISION, 'authenticated' satisfies AuthDecision);
