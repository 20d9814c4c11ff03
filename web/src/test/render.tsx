import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { type RootState, setupStore } from '../app/store';
import { AuthProvider } from '../features/auth/AuthProvider';

interface ExtendedRenderOptions extends Omit<RenderOptions, 'queries'> {
  preloadedState?: Partial<RootState>;
  route?: string;
}

/** Renders `ui` with the app's store and a router at `route`, as the app would. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, route = '/', ...options }: ExtendedRenderOptions = {},
) {
  const store = setupStore(preloadedState);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>
        <AuthProvider>{children}</AuthProvider>
      </MemoryRouter>
    </Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper, ...options }) };
}
