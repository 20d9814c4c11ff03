import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { offlineDebate } from '../community/community.fixtures';
import type { SavedDebate } from '../debates/debates.api';
import { HistoryTab } from './HistoryTab';
import { signedInState } from '../../test/fixtures';

const SHARED = 'Debate shared successfully! It will appear in Community Rankings.';

const signedIn = signedInState({ displayName: 'Ada' });

const saved: SavedDebate = {
  id: 'd 1',
  topic: 'Should voting be compulsory?',
  categories: ['Politics'],
  userDisplayName: 'Ada',
  timestamp: '2026-11-20T10:00:00.000Z',
  sharedAt: null,
  isPublic: false,
  upvotes: 0,
  downvotes: 0,
  rematchOf: null,
  moderatorEnabled: false,
  stopped: false,
  model1: offlineDebate.model1,
  model2: offlineDebate.model2,
  verdict: { winner: 'First Speaker', tie: false, firstTotal: 67, secondTotal: 63 },
};

const realFetch = globalThis.fetch;
const realClipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
/** The mutations the gateway was sent, by name: 'ShareDebate d 1'. */
let sent: string[] = [];
let copied: string[] = [];

/** The gateway: the history holds `debate`; sharing and unsharing succeed. */
function fakeGateway(debate: SavedDebate) {
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const { query, variables } = JSON.parse(String(init?.body)) as {
      query: string;
      variables?: { id?: string };
    };
    const answer = (data: object) => ({ ok: true, status: 200, json: async () => ({ data }) });
    const id = variables?.id ?? '';
    if (query.includes('query MyDebates(')) {
      return answer({ myDebates: { debates: [debate], total: 1, next: null } });
    }
    if (query.includes('mutation ShareDebate(')) {
      sent.push(`ShareDebate ${id}`);
      return answer({ shareDebate: { id, isPublic: true } });
    }
    if (query.includes('mutation UnshareDebate(')) {
      sent.push(`UnshareDebate ${id}`);
      return answer({ unshareDebate: { id, isPublic: false } });
    }
    return new Promise<never>(() => undefined);
  }) as unknown as typeof fetch;
}

beforeEach(() => {
  sent = [];
  copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        copied.push(text);
      },
    },
  });
});

afterEach(() => {
  globalThis.fetch = realFetch;
  if (realClipboard) Object.defineProperty(navigator, 'clipboard', realClipboard);
  else Reflect.deleteProperty(navigator, 'clipboard');
});

const renderHistory = () =>
  renderWithProviders(<HistoryTab />, { route: '/community/history', preloadedState: signedIn });

describe(HistoryTab.name, () => {
  it('asks before sharing, saying what becomes public; Cancel shares nothing', async () => {
    fakeGateway(saved);
    renderHistory();
    fireEvent.click(await screen.findByRole('button', { name: 'Share with Community' }));
    const dialog = screen.getByRole('dialog', { name: 'Share this debate with the community?' });
    const items = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'its topic, “Should voting be compulsory?”, and its categories',
      'the speakers’ turns, and what wrote them',
      'the judges’ verdict',
      'your name, Ada, as its author',
    ]);
    expect(dialog.textContent).toContain('You can unshare it later, here in your history.');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Share' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([]);
    expect(screen.getByRole('button', { name: 'Share with Community' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('offers a rematch with sides swapped between two models, never against a person', async () => {
    fakeGateway(saved);
    const { unmount } = renderHistory();
    expect(await screen.findByRole('button', { name: 'Rematch, sides swapped' })).toBeTruthy();
    unmount();
    fakeGateway({ ...saved, model2: { ...saved.model2, name: 'person' } });
    renderHistory();
    await screen.findByRole('button', { name: 'Share with Community' });
    expect(screen.queryByRole('button', { name: 'Rematch, sides swapped' })).toBeNull();
  });

  it('does not promise a verdict or a name the debate does not have', async () => {
    fakeGateway({ ...saved, verdict: null, userDisplayName: 'Anonymous User' });
    renderHistory();
    fireEvent.click(await screen.findByRole('button', { name: 'Share with Community' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(2);
    expect(dialog.textContent).not.toMatch(/verdict|your name/);
  });

  it('shares on Share, then its toast copies the public page’s address', async () => {
    fakeGateway(saved);
    renderHistory();
    fireEvent.click(await screen.findByRole('button', { name: 'Share with Community' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    const toast = await screen.findByText(SHARED, { exact: false });
    expect(sent).toEqual(['ShareDebate d 1']);
    expect(screen.getByRole('button', { name: 'Shared with Community' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('link', { name: 'Public page' }).getAttribute('href')).toBe(
      '/community/debate/d%201',
    );
    // The keyboard's focus is not left on the disabled button: it goes to what undoes the share.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Unshare' })),
    );

    fireEvent.click(within(toast).getByRole('button', { name: 'Copy link' }));
    await within(toast).findByText('Link copied.');
    expect(copied).toEqual([`${window.location.origin}/community/debate/d%201`]);
    // The card keeps one too, for when the toast has gone (or was never reached by Tab).
    const card = screen.getByRole('article');
    fireEvent.click(within(card).getByRole('button', { name: 'Copy link' }));
    await within(card).findByText('Link copied.');
    expect(copied).toHaveLength(2);
  });

  it('offers Unshare on a shared debate, asks, and makes it private again', async () => {
    fakeGateway({ ...saved, isPublic: true, sharedAt: '2026-11-21T10:00:00.000Z' });
    renderHistory();
    fireEvent.click(await screen.findByRole('button', { name: 'Unshare' }));
    const dialog = screen.getByRole('dialog', { name: 'Unshare this debate?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Unshare' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Unshare this debate?' })).getByRole('button', {
        name: 'Unshare',
      }),
    );
    await screen.findByText(
      'Debate unshared successfully. It no longer appears in Community Rankings.',
    );
    expect(sent).toEqual(['UnshareDebate d 1']);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Share with Community' })).toHaveProperty(
        'disabled',
        false,
      ),
    );
    expect(screen.queryByRole('link', { name: 'Public page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Unshare' })).toBeNull();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Share with Community' }),
    );
  });
});
