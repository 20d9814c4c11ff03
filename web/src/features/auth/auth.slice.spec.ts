import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { renderHook } from '@testing-library/react';
import { currentAccessToken, setAccessToken } from '../../app/api';
import { setupStore } from '../../app/store';
import { useAuth } from './AuthProvider';
import {
  LAST_USER_LOGGED_IN_KEY,
  restoreSession,
  selectShowsSignedIn,
  sessionResolved,
  signInWithEmail,
  signOut,
} from './auth.slice';

const session = {
  accessToken: 'header.payload.signature',
  expiresIn: 300,
  user: {
    id: 'u1',
    email: 'ada@example.com',
    displayName: null,
    photoURL: null,
    isPro: false,
    createdAt: '2026-11-01T10:00:00.000Z',
    mustVerifyEmail: true,
  },
};

/** The gateway as the browser sees it: answers each operation with `answer(query)`. */
function gateway(answer: (query: string) => unknown) {
  const fetchMock = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const { query } = JSON.parse(String(init?.body)) as { query: string };
    const body = answer(query);
    return { ok: true, status: 200, json: async () => body };
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

describe('auth state', () => {
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    window.localStorage.clear();
    setAccessToken(null);
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('starts loading, with the flag remembered from the last visit', () => {
    window.localStorage.setItem(LAST_USER_LOGGED_IN_KEY, 'true');
    const sut = setupStore();
    expect(sut.getState().auth.status).toBe('loading');
    expect(selectShowsSignedIn(sut.getState())).toBe(true);
  });

  it('restores a session from the refresh cookie, keeping the token in memory only', async () => {
    gateway(() => ({ data: { refreshSession: session } }));
    const sut = setupStore();
    await sut.dispatch(restoreSession());
    expect(sut.getState().auth).toMatchObject({
      status: 'signedIn',
      error: null,
      user: { uid: 'u1', email: 'ada@example.com', isPro: false },
    });
    expect(currentAccessToken()).toBe(session.accessToken);
    expect(JSON.stringify(sut.getState())).not.toContain(session.accessToken);
    expect({ ...window.localStorage }).toEqual({ [LAST_USER_LOGGED_IN_KEY]: 'true' });
  });

  it('spends the rotating refresh cookie once when restores overlap', async () => {
    const fetchMock = gateway(() => ({ data: { refreshSession: session } }));
    const sut = setupStore();
    await Promise.all([sut.dispatch(restoreSession()), sut.dispatch(restoreSession())]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('resolves to nobody without a session, and forgets the flag', async () => {
    window.localStorage.setItem(LAST_USER_LOGGED_IN_KEY, 'true');
    gateway(() => ({ data: { refreshSession: null } }));
    const sut = setupStore();
    await sut.dispatch(restoreSession());
    expect(sut.getState().auth.status).toBe('signedOut');
    expect(window.localStorage.getItem(LAST_USER_LOGGED_IN_KEY)).toBe('false');
    expect(selectShowsSignedIn(sut.getState())).toBe(false);
  });

  it("records 'Failed to sign in with email' and hands back the realm's reason", async () => {
    gateway(() => ({
      data: null,
      errors: [{ message: 'Invalid user credentials', extensions: { code: 'UNAUTHENTICATED' } }],
    }));
    const sut = setupStore();
    const pending = sut.dispatch(signInWithEmail({ email: 'ada@example.com', password: 'nope' }));
    await expect(pending.unwrap()).rejects.toMatchObject({
      message: 'Invalid user credentials',
      code: 'UNAUTHENTICATED',
    });
    expect(sut.getState().auth).toMatchObject({
      status: 'error',
      user: null,
      error: 'Failed to sign in with email',
    });
  });

  it("falls back to 'An unknown error occurred' when the session cannot be read", async () => {
    globalThis.fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const sut = setupStore();
    await sut.dispatch(restoreSession());
    expect(sut.getState().auth).toMatchObject({
      status: 'error',
      error: 'An unknown error occurred',
    });
  });

  it('drops the access token on sign-out, even when the gateway fails', async () => {
    gateway(() => ({ data: null, errors: [{ message: 'The identity service is unavailable' }] }));
    const sut = setupStore();
    sut.dispatch(sessionResolved({ user: { ...toUser() }, accessExpiresAt: Date.now() + 1000 }));
    setAccessToken('token');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await sut.dispatch(signOut());
    expect(currentAccessToken()).toBeNull();
    expect(sut.getState().auth).toMatchObject({ status: 'error', error: 'Failed to sign out' });
  });

  it('says where useAuth belongs when used outside the provider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useAuth())).toThrow(
      'useAuth must be used within an AuthProvider',
    );
  });
});

function toUser() {
  return {
    uid: 'u1',
    email: 'ada@example.com',
    displayName: null,
    photoURL: null,
    isPro: false,
    creationTime: null,
    mustVerifyEmail: false,
  };
}
