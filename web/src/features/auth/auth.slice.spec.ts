import { beforeEach, describe, expect, it } from '@jest/globals';
import { setupStore } from '../../app/store';
import { LAST_USER_LOGGED_IN_KEY, selectShowsSignedIn, sessionResolved } from './auth.slice';

const user = { uid: 'u1', email: 'ada@example.com', displayName: 'Ada', isPro: false };

describe('auth state', () => {
  beforeEach(() => window.localStorage.clear());

  it('starts loading, with the flag remembered from the last visit', () => {
    window.localStorage.setItem(LAST_USER_LOGGED_IN_KEY, 'true');
    const sut = setupStore();
    expect(sut.getState().auth.status).toBe('loading');
    expect(selectShowsSignedIn(sut.getState())).toBe(true);
  });

  it('remembers a sign-in for the next visit', () => {
    const sut = setupStore();
    sut.dispatch(sessionResolved(user));
    expect(window.localStorage.getItem(LAST_USER_LOGGED_IN_KEY)).toBe('true');
    expect(selectShowsSignedIn(sut.getState())).toBe(true);
  });

  it('forgets it once the session resolves to nobody', () => {
    window.localStorage.setItem(LAST_USER_LOGGED_IN_KEY, 'true');
    const sut = setupStore();
    sut.dispatch(sessionResolved(null));
    expect(window.localStorage.getItem(LAST_USER_LOGGED_IN_KEY)).toBe('false');
    expect(selectShowsSignedIn(sut.getState())).toBe(false);
  });
});
