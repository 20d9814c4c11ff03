import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The local-storage key of the remembered "last user logged in" flag (spec §2, §3). */
export const LAST_USER_LOGGED_IN_KEY = 'lastUserLoggedIn';

export interface AuthUser {
  readonly uid: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly isPro: boolean;
}

export interface AuthState {
  readonly status: 'loading' | 'signedIn' | 'signedOut' | 'error';
  readonly user: AuthUser | null;
  readonly error: string | null;
  /** What the last visit ended with; the navigation bar trusts it while the status loads. */
  readonly lastUserLoggedIn: boolean;
}

export function readLastUserLoggedIn(storage: Pick<Storage, 'getItem'> | undefined): boolean {
  try {
    return storage?.getItem(LAST_USER_LOGGED_IN_KEY) === 'true';
  } catch {
    return false;
  }
}

export function initialAuthState(storage?: Pick<Storage, 'getItem'>): AuthState {
  return {
    status: 'loading',
    user: null,
    error: null,
    lastUserLoggedIn: readLastUserLoggedIn(storage),
  };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState() as AuthState,
  reducers: {
    sessionResolved(_state, action: PayloadAction<AuthUser | null>): AuthState {
      return {
        status: action.payload ? 'signedIn' : 'signedOut',
        user: action.payload,
        error: null,
        lastUserLoggedIn: action.payload !== null,
      };
    },
    sessionFailed(state, action: PayloadAction<string | undefined>): AuthState {
      return {
        ...state,
        status: 'error',
        user: null,
        error: action.payload ?? 'An unknown error occurred',
      };
    },
  },
});

export const { sessionResolved, sessionFailed } = authSlice.actions;

/** Whether the navigation bar shows a signed-in user: the remembered flag while loading. */
export function selectShowsSignedIn(state: { auth: AuthState }): boolean {
  if (state.auth.status === 'loading') return state.auth.lastUserLoggedIn;
  return state.auth.status === 'signedIn';
}
