import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import {
  type AuthFailure,
  type AuthUser,
  completeProviderSignIn,
  restoreSession,
  type SignInProvider,
  signInWithEmail,
  signOut,
  signUpWithEmail,
  startProviderSignIn,
} from './auth.slice';

export interface AuthContextValue {
  readonly user: AuthUser | null;
  readonly loading: boolean;
  readonly error: string | null;
  /** Each rejects with the message to show (the realm's reason), after recording the failure. */
  signInWithEmail(email: string, password: string): Promise<void>;
  signUpWithEmail(email: string, password: string): Promise<void>;
  signInWithProvider(provider: SignInProvider): Promise<void>;
  completeProviderSignIn(provider: SignInProvider, code: string, state: string): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** How early, before the access token expires, the session is renewed. */
const RENEW_AHEAD_MS = 30_000;

function rethrow(failure: AuthFailure | undefined): never {
  throw new Error(failure?.message ?? '', { cause: failure });
}

/**
 * Restores the session once at start (from the refresh cookie), renews the access token before
 * it expires, and gives the pages the sign-in actions.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const auth = useAppSelector((state) => state.auth);

  // Once at start: a state already known (a test's, or a server-rendered one) is kept.
  const startsLoading = useRef(auth.status === 'loading');
  useEffect(() => {
    if (startsLoading.current) void dispatch(restoreSession());
  }, [dispatch]);

  useEffect(() => {
    if (auth.status !== 'signedIn' || auth.accessExpiresAt === null) return undefined;
    const delay = Math.max(1_000, auth.accessExpiresAt - Date.now() - RENEW_AHEAD_MS);
    const timer = setTimeout(() => void dispatch(restoreSession()), delay);
    return () => clearTimeout(timer);
  }, [dispatch, auth.status, auth.accessExpiresAt]);

  const value = useMemo<AuthContextValue>(() => {
    // A rejected thunk's value is its AuthFailure: rethrown as an Error with the message to show.
    const run = async (pending: { unwrap(): Promise<unknown> }): Promise<void> => {
      try {
        await pending.unwrap();
      } catch (failure) {
        rethrow(failure as AuthFailure);
      }
    };
    return {
      user: auth.user,
      loading: auth.status === 'loading',
      error: auth.error,
      signInWithEmail: (email, password) => run(dispatch(signInWithEmail({ email, password }))),
      signUpWithEmail: (email, password) => run(dispatch(signUpWithEmail({ email, password }))),
      signInWithProvider: (provider) =>
        run(
          dispatch(
            startProviderSignIn({ provider, navigate: (url) => window.location.assign(url) }),
          ),
        ),
      completeProviderSignIn: (provider, code, state) =>
        run(dispatch(completeProviderSignIn({ provider, code, state }))),
      signOut: () => run(dispatch(signOut())),
    };
  }, [dispatch, auth.user, auth.status, auth.error]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
