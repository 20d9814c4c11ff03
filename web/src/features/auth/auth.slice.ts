import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { type GraphqlFailure, graphqlRequest, setAccessToken } from '../../app/api';
import { graphql } from '../../gql/gql';
import type {
  AuthSessionFieldsFragment,
  SignInProvider as GraphqlSignInProvider,
} from '../../gql/graphql';

/** The local-storage key of the remembered "last user logged in" flag (spec §2, §3). */
export const LAST_USER_LOGGED_IN_KEY = 'lastUserLoggedIn';

/** The signed-in user (spec §3 'Auth user'). */
export interface AuthUser {
  readonly uid: string;
  readonly email: string;
  readonly displayName: string | null;
  readonly photoURL: string | null;
  readonly isPro: boolean;
  /** When the account was created (ISO 8601), the spec's metadata.creationTime. */
  readonly creationTime: string | null;
  /**
   * The site asks for a verified address before the free debates, and this one is not verified
   * yet (a followed link, or a provider's word, verifies it).
   */
  readonly mustVerifyEmail: boolean;
}

/**
 * A provider as the login page's address names it (`?provider=github`): the gateway's enum
 * value in lower case.
 */
export type SignInProvider = Lowercase<GraphqlSignInProvider>;

export interface AuthState {
  readonly status: 'loading' | 'signedIn' | 'signedOut' | 'error';
  readonly user: AuthUser | null;
  readonly error: string | null;
  /** What the last visit ended with; the navigation bar trusts it while the status loads. */
  readonly lastUserLoggedIn: boolean;
  /** When the in-memory access token expires (ms since the epoch), to renew it before. */
  readonly accessExpiresAt: number | null;
}

const DEFAULT_AUTH_ERROR = 'An unknown error occurred';

export const providerNames: Record<SignInProvider, string> = {
  google: 'Google',
  github: 'GitHub',
};

function readLastUserLoggedIn(storage: Pick<Storage, 'getItem'> | undefined): boolean {
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
    accessExpiresAt: null,
  };
}

/** A refusal from the gateway: its message is for the user to read. */
class AuthError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/** What a thunk hands the reducer: the user and when the token expires (never the token). */
export interface SignedIn {
  readonly user: AuthUser;
  readonly accessExpiresAt: number;
}

// The session every sign-in answers with: the generator appends it to the mutations below.
graphql(`
  fragment AuthSessionFields on AuthSession {
    accessToken
    expiresIn
    user {
      id
      email
      displayName
      photoURL
      isPro
      createdAt
      mustVerifyEmail
    }
  }
`);

const RefreshSessionDocument = graphql(`
  mutation RefreshSession {
    refreshSession {
      ...AuthSessionFields
    }
  }
`);

const SignInDocument = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      ...AuthSessionFields
    }
  }
`);

const SignUpDocument = graphql(`
  mutation SignUp($email: String!, $password: String!) {
    signUp(email: $email, password: $password) {
      ...AuthSessionFields
    }
  }
`);

const SignInWithProviderDocument = graphql(`
  mutation SignInWithProvider($provider: SignInProvider!) {
    signInWithProvider(provider: $provider)
  }
`);

const CompleteProviderSignInDocument = graphql(`
  mutation CompleteProviderSignIn($code: String!, $state: String!) {
    completeProviderSignIn(code: $code, state: $state) {
      ...AuthSessionFields
    }
  }
`);

const SignOutDocument = graphql(`
  mutation SignOut {
    signOut
  }
`);

/** The data of a sent operation, or an AuthError with the gateway's message and code. */
async function dataOf<T>(sent: Promise<{ data: T } | { error: GraphqlFailure }>): Promise<T> {
  const result = await sent;
  if ('error' in result) throw new AuthError(result.error.message, result.error.code);
  return result.data;
}

function adopt(session: AuthSessionFieldsFragment): SignedIn {
  setAccessToken(session.accessToken);
  const { user } = session;
  return {
    user: {
      uid: user.id,
      email: user.email,
      displayName: user.displayName,
      photoURL: user.photoURL,
      isPro: user.isPro,
      creationTime: user.createdAt,
      mustVerifyEmail: user.mustVerifyEmail,
    },
    accessExpiresAt: Date.now() + session.expiresIn * 1000,
  };
}

// One refresh at a time: the refresh cookie rotates, so two concurrent refreshes (StrictMode's
// double effect, a timer racing a reload) would spend the same cookie twice and lose the session.
let refreshing: Promise<SignedIn | null> | null = null;

function refreshOnce(): Promise<SignedIn | null> {
  refreshing ??= dataOf(graphqlRequest(RefreshSessionDocument))
    .then((data) => {
      if (data.refreshSession) return adopt(data.refreshSession);
      setAccessToken(null);
      return null;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** The error a rejected auth thunk carries: what to show, and what the auth state records. */
export interface AuthFailure {
  readonly message: string;
  readonly stateError: string;
  readonly code?: string;
}

function failure(error: unknown, stateError: string): AuthFailure {
  const message = error instanceof Error && error.message ? error.message : '';
  return {
    message,
    stateError,
    ...(error instanceof AuthError && error.code ? { code: error.code } : {}),
  };
}

/** At start, and before the access token expires: renews the session from the refresh cookie. */
export const restoreSession = createAsyncThunk<
  SignedIn | null,
  undefined,
  { rejectValue: AuthFailure }
>('auth/restoreSession', async (_, { rejectWithValue }) => {
  try {
    return await refreshOnce();
  } catch (error) {
    return rejectWithValue(failure(error, DEFAULT_AUTH_ERROR));
  }
});

interface EmailCredentials {
  readonly email: string;
  readonly password: string;
}

/** A thunk that hands e-mail and password to `send` and adopts the session it returns. */
function emailThunk(
  type: string,
  send: (credentials: EmailCredentials) => Promise<AuthSessionFieldsFragment>,
  stateError: string,
) {
  return createAsyncThunk<SignedIn, EmailCredentials, { rejectValue: AuthFailure }>(
    type,
    async (credentials, { rejectWithValue }) => {
      try {
        return adopt(await send(credentials));
      } catch (error) {
        return rejectWithValue(failure(error, stateError));
      }
    },
  );
}

export const signInWithEmail = emailThunk(
  'auth/signInWithEmail',
  async (credentials) => (await dataOf(graphqlRequest(SignInDocument, credentials))).signIn,
  'Failed to sign in with email',
);

/** Creates the account (the realm's password policy applies), then signs in. */
export const signUpWithEmail = emailThunk(
  'auth/signUpWithEmail',
  async (credentials) => (await dataOf(graphqlRequest(SignUpDocument, credentials))).signUp,
  'Failed to sign up with email',
);

/** Asks the gateway where to send the browser to sign in with `provider`, and goes there. */
export const startProviderSignIn = createAsyncThunk<
  undefined,
  { provider: SignInProvider; navigate: (url: string) => void },
  { rejectValue: AuthFailure }
>('auth/startProviderSignIn', async ({ provider, navigate }, { rejectWithValue }) => {
  try {
    const data = await dataOf(
      graphqlRequest(SignInWithProviderDocument, {
        provider: provider.toUpperCase() as GraphqlSignInProvider,
      }),
    );
    navigate(data.signInWithProvider);
  } catch (error) {
    return rejectWithValue(failure(error, `Failed to sign in with ${providerNames[provider]}`));
  }
});

/** Back from the provider with a code: exchanges it for a session. */
export const completeProviderSignIn = createAsyncThunk<
  SignedIn,
  { provider: SignInProvider; code: string; state: string },
  { rejectValue: AuthFailure }
>('auth/completeProviderSignIn', async ({ provider, code, state }, { rejectWithValue }) => {
  try {
    const data = await dataOf(graphqlRequest(CompleteProviderSignInDocument, { code, state }));
    return adopt(data.completeProviderSignIn);
  } catch (error) {
    return rejectWithValue(failure(error, `Failed to sign in with ${providerNames[provider]}`));
  }
});

export const signOut = createAsyncThunk<undefined, undefined, { rejectValue: AuthFailure }>(
  'auth/signOut',
  async (_, { rejectWithValue }) => {
    setAccessToken(null);
    try {
      await dataOf(graphqlRequest(SignOutDocument));
    } catch (error) {
      console.error('Sign-out failed', error);
      return rejectWithValue(failure(error, 'Failed to sign out'));
    }
  },
);

function signedIn(payload: SignedIn): AuthState {
  return {
    status: 'signedIn',
    user: payload.user,
    error: null,
    lastUserLoggedIn: true,
    accessExpiresAt: payload.accessExpiresAt,
  };
}

const signedOut: AuthState = {
  status: 'signedOut',
  user: null,
  error: null,
  lastUserLoggedIn: false,
  accessExpiresAt: null,
};

function failed(state: AuthState, error: AuthFailure | undefined): AuthState {
  return {
    ...state,
    status: 'error',
    user: null,
    error: error?.stateError ?? DEFAULT_AUTH_ERROR,
    lastUserLoggedIn: false,
    accessExpiresAt: null,
  };
}

/**
 * The auth state machine (spec §4): loading, then a user, nobody, or an error. Every way in or
 * out of a session goes through the thunks above; the reducers only record where they led.
 */
export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState() as AuthState,
  reducers: {
    sessionResolved(_state, action: PayloadAction<SignedIn | null>): AuthState {
      return action.payload ? signedIn(action.payload) : signedOut;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(restoreSession.fulfilled, (_state, action) =>
        action.payload ? signedIn(action.payload) : signedOut,
      )
      .addCase(restoreSession.rejected, (state, action) => failed(state, action.payload))
      .addCase(signInWithEmail.fulfilled, (_state, action) => signedIn(action.payload))
      .addCase(signInWithEmail.rejected, (state, action) => failed(state, action.payload))
      .addCase(signUpWithEmail.fulfilled, (_state, action) => signedIn(action.payload))
      .addCase(signUpWithEmail.rejected, (state, action) => failed(state, action.payload))
      .addCase(startProviderSignIn.rejected, (state, action) => failed(state, action.payload))
      .addCase(completeProviderSignIn.fulfilled, (_state, action) => signedIn(action.payload))
      .addCase(completeProviderSignIn.rejected, (state, action) => failed(state, action.payload))
      .addCase(signOut.fulfilled, () => signedOut)
      .addCase(signOut.rejected, (state, action) => failed(state, action.payload));
  },
});

export const { sessionResolved } = authSlice.actions;

/** Whether the navigation bar shows a signed-in user: the remembered flag while loading. */
export function selectShowsSignedIn(state: { auth: AuthState }): boolean {
  if (state.auth.status === 'loading') return state.auth.lastUserLoggedIn;
  return state.auth.status === 'signedIn';
}
