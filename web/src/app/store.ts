import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import {
  authSlice,
  initialAuthState,
  LAST_USER_LOGGED_IN_KEY,
  signOut,
} from '../features/auth/auth.slice';
import { engineSlice, forgetFollowedRun } from '../features/engine/engine.slice';
import { api } from './api';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [authSlice.name]: authSlice.reducer,
  [engineSlice.name]: engineSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function setupStore(preloadedState?: Partial<RootState>) {
  const browserStorage = typeof window === 'undefined' ? undefined : window.localStorage;
  // Signing out leaves nothing of the user's run in the browser: its subscription is closed
  // and its record and drafts removed (the engine's state is reset by its reducer).
  const signingOut = createListenerMiddleware();
  signingOut.startListening({ actionCreator: signOut.pending, effect: forgetFollowedRun });
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { auth: initialAuthState(browserStorage), ...preloadedState },
    middleware: (getDefault) => getDefault().prepend(signingOut.middleware).concat(api.middleware),
  });
  // Remember the signed-in state for the next visit's first paint.
  let remembered = store.getState().auth.lastUserLoggedIn;
  store.subscribe(() => {
    const { status, lastUserLoggedIn } = store.getState().auth;
    if (status === 'loading' || lastUserLoggedIn === remembered) return;
    remembered = lastUserLoggedIn;
    try {
      browserStorage?.setItem(LAST_USER_LOGGED_IN_KEY, String(lastUserLoggedIn));
    } catch {
      // Storage may be full or blocked; the flag is only a hint for the first paint.
    }
  });
  return store;
}

type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
