import type { SignInRefusal } from '@debate/contracts';
import { KeycloakError } from '../keycloak/keycloak.client.js';

/** What the realm was asked when it refused. */
export type RefusedDuring = 'sign-in' | 'sign-up' | 'refresh' | 'provider';

/**
 * Keycloak's refusals a person can act on, as the reasons of the sign-in contract; any other
 * error is thrown again.
 */
export function refusalOf(error: unknown, during: RefusedDuring): SignInRefusal {
  if (!(error instanceof KeycloakError)) throw error;
  const message = error.description;
  if (during === 'sign-up') {
    if (error.status === 409) return { refused: 'email_taken', message };
    if (error.status === 400 && /password/i.test(`${error.error} ${message}`)) {
      return { refused: 'password_policy', message };
    }
  }
  if (during === 'refresh' && error.status === 400 && error.error === 'invalid_grant') {
    return { refused: 'session_expired', message };
  }
  if (during === 'provider' && error.status === 400 && error.error === 'invalid_grant') {
    return { refused: 'provider_failed', message };
  }
  if (during === 'sign-in' && error.error === 'invalid_grant') {
    return /disabled|locked/i.test(message)
      ? { refused: 'account_locked', message }
      : { refused: 'invalid_credentials', message };
  }
  throw error;
}
