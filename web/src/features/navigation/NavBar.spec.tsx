import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { NavBar } from './NavBar';
import { renderWithProviders } from '../../test/render';
import { initialAuthState } from '../auth/auth.slice';

const loadingWith = (lastUserLoggedIn: boolean) => ({
  auth: { ...initialAuthState(), status: 'loading' as const, lastUserLoggedIn },
});
const signedOut = { auth: { ...initialAuthState(), status: 'signedOut' as const } };

function desktop() {
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

describe(NavBar.name, () => {
  // First: a restore still pending from a test of the loading state (the setup's fetch never
  // answers) would be the one these wait for, as the app makes one restore at a time.
  describe('once the gateway has answered the session restore of a reload', () => {
    const realFetch = globalThis.fetch;
    afterEach(() => {
      globalThis.fetch = realFetch;
    });

    // The cookie was not kept (or the session ended): the remembered flag gives way.
    it.each([
      [
        'finds no session',
        async () => ({
          ok: true,
          status: 200,
          json: async () => ({ data: { refreshSession: null } }),
        }),
      ],
      ['cannot reach it', async () => Promise.reject(new TypeError('Failed to fetch'))],
    ])('shows "Sign In" when the restore %s', async (_, answer) => {
      globalThis.fetch = jest.fn(answer) as unknown as typeof fetch;
      renderWithProviders(<NavBar />, { preloadedState: loadingWith(true) });
      expect(await desktop().findByRole('link', { name: 'Sign In' })).toBeTruthy();
      expect(desktop().queryByRole('link', { name: 'Account' })).toBeNull();
    });
  });

  it('links the logo to / and the engine to /engine as "AI Engine"', () => {
    renderWithProviders(<NavBar />, { preloadedState: signedOut });
    expect(desktop().getByRole('link', { name: 'AI Debate home' }).getAttribute('href')).toBe('/');
    expect(desktop().getByRole('link', { name: 'AI Engine' }).getAttribute('href')).toBe('/engine');
    expect(desktop().getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/about');
  });

  it('offers "Sign In" to a signed-out visitor', () => {
    renderWithProviders(<NavBar />, { preloadedState: signedOut });
    expect(desktop().getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect(desktop().queryByRole('link', { name: 'Account' })).toBeNull();
  });

  it('trusts the remembered flag while the sign-in state loads', () => {
    renderWithProviders(<NavBar />, { preloadedState: loadingWith(true) });
    expect(desktop().getByRole('link', { name: 'Account' }).getAttribute('href')).toBe('/account');
  });

  it('shows "Sign In" while loading when the last visit was signed out', () => {
    renderWithProviders(<NavBar />, { preloadedState: loadingWith(false) });
    expect(desktop().getByRole('link', { name: 'Sign In' })).toBeTruthy();
  });

  it.each(['/community/ranking', '/community/history', '/community/anything'])(
    'highlights the community link on %s',
    (route) => {
      renderWithProviders(<NavBar />, { preloadedState: signedOut, route });
      const link = desktop().getByRole('link', { name: 'Community' });
      expect(link.getAttribute('aria-current')).toBe('page');
      expect(link.getAttribute('href')).toBe('/community/ranking');
    },
  );

  it('does not highlight the community link elsewhere', () => {
    renderWithProviders(<NavBar />, { preloadedState: signedOut, route: '/about' });
    expect(
      desktop().getByRole('link', { name: 'Community' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('toggles the mobile menu, whose engine entry is "Debate Engine" linking to /', () => {
    const { container } = renderWithProviders(<NavBar />, { preloadedState: signedOut });
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    const menu = container.querySelector('.nav-mobile') as HTMLElement;
    expect(menu.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(menu.hidden).toBe(false);
    expect(within(menu).getByRole('link', { name: 'Debate Engine' }).getAttribute('href')).toBe(
      '/',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(menu.hidden).toBe(true);
  });

  it('closes the mobile menu on an outside click and on choosing a link', () => {
    const { container } = renderWithProviders(<NavBar />, { preloadedState: signedOut });
    const menu = container.querySelector('.nav-mobile') as HTMLElement;
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    act(() => {
      document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    });
    expect(menu.hidden).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.click(within(menu).getByRole('link', { name: 'About' }));
    expect(menu.hidden).toBe(true);
  });
});
