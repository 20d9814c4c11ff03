import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { authSlice, initialAuthState, LAST_USER_LOGGED_IN_KEY } from '../features/auth/auth.slice';
import { engineSlice } from '../features/engine/engine.slice';
import { api } from './api';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [authSlice.name]: authSlice.reducer,
  [engineSlice.name]: engineSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function setupStore(preloadedState?: Partial<RootState>) {
  const browserStorage = typeof window === 'undefined' ? undefined : window.localStorage;
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: { auth: initialAuthState(browserStorage), ...preloadedState },
    middleware: (getDefault) => getDefault().concat(api.middleware),
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
