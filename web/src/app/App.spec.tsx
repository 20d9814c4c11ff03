import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../test/render';
import { initialAuthState } from '../features/auth/auth.slice';
import { AppRoutes } from './App';

const signedOut = { auth: { ...initialAuthState(), status: 'signedOut' as const } };

describe(AppRoutes.name, () => {
  it('redirects / to the community ranking', () => {
    renderWithProviders(<AppRoutes />, { preloadedState: signedOut, route: '/' });
    expect(screen.getByRole('heading', { level: 1, name: 'Community' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Community Forum' })).toBeTruthy();
  });

  it('says on the history tab that generations are private', async () => {
    renderWithProviders(<AppRoutes />, { preloadedState: signedOut, route: '/community/history' });
    expect(screen.getByText('Your debate generations are accessible only to you.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Your Account Activity' })).toBeTruthy();
  });

  it.each(['/history', '/account'])(
    'sends a signed-out visitor from %s to /login',
    async (route) => {
      renderWithProviders(<AppRoutes />, { preloadedState: signedOut, route });
      expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy();
    },
  );

  it("shows the 'Personal Library' while the sign-in state loads", async () => {
    renderWithProviders(<AppRoutes />, { route: '/history' });
    expect(await screen.findByRole('heading', { name: 'Personal Library' })).toBeTruthy();
  });

  it('has an about page with its three tabs', async () => {
    renderWithProviders(<AppRoutes />, { preloadedState: signedOut, route: '/about' });
    expect((await screen.findAllByRole('tab')).map((tab) => tab.textContent)).toEqual([
      'The Philosophy',
      'The Science',
      'The Backers',
    ]);
  });
});
