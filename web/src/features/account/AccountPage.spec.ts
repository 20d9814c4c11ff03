import { allowanceTexts } from '@debate/contracts/constants';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { createElement } from 'react';
import type { UsageQuery } from '../../gql/graphql';
import { renderWithProviders } from '../../test/render';
import { AccountPage, tokensUsed } from './AccountPage';
import { longDate, NEXT_FREE_DEBATE } from './NextFreeDebate';
import { signedInState } from '../../test/fixtures';

describe(tokensUsed.name, () => {
  it('gives the tokens the models read and wrote for the user’s debates', () => {
    expect(tokensUsed({ tokensIn: 12_480, tokensOut: 3_210 })).toBe('12,480 in / 3,210 out');
    expect(tokensUsed({ tokensIn: 0, tokensOut: 0 })).toBe('0 in / 0 out');
  });
});

type Usage = UsageQuery['usage'];

const signedIn = signedInState({ creationTime: '2026-11-01T10:00:00.000Z' });

const spent: Usage = {
  freeDebatesRemaining: 0,
  lastDebateStarted: '2026-11-28T09:30:00.000Z',
  nextFreeDebateAt: '2026-12-04T09:30:00.001Z',
  totalDebates: 2,
  memberSince: '2026-11-01T10:00:00.000Z',
  tokensIn: 0,
  tokensOut: 0,
};

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The gateway: `usage` for the usage query; nothing else answers. */
function fakeGateway(usage: Usage) {
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const request = JSON.parse(String(init?.body)) as { query: string };
    if (!request.query.includes('query Usage')) return new Promise<never>(() => undefined);
    return { ok: true, status: 200, json: async () => ({ data: { usage } }) };
  }) as unknown as typeof fetch;
}

const renderAccount = () =>
  renderWithProviders(createElement(AccountPage), { preloadedState: signedIn, route: '/account' });

/** The Usage Statistics' definition of `term`. */
const valueOf = (term: string) =>
  screen.getByText(term, { selector: 'dt, dt *' }).closest('dt')?.nextElementSibling;

describe(AccountPage.name, () => {
  it('says once, as the term’s description, that a week without debates gives 1 for free', async () => {
    fakeGateway({ ...spent, freeDebatesRemaining: 1, nextFreeDebateAt: null });
    renderAccount();
    await screen.findByText('1');
    const term = screen.getByText('Free Debates Remaining');
    expect(screen.getAllByText(allowanceTexts.refillTooltip)).toHaveLength(1);
    expect(document.querySelector('[title]')).toBeNull();
    const described = term.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described)?.textContent).toBe(allowanceTexts.refillTooltip);
    // Reachable by the keyboard; Escape hides it until focus comes back.
    expect(term.tabIndex).toBe(0);
    const tooltip = term.closest('.tooltip');
    fireEvent.keyDown(term, { key: 'Escape' });
    expect(tooltip?.classList.contains('dismissed')).toBe(true);
    fireEvent.focus(term);
    expect(tooltip?.classList.contains('dismissed')).toBe(false);
    // One left: no refresh note, no date.
    expect(screen.queryByText(allowanceTexts.refillNote)).toBeNull();
    expect(screen.queryByText(NEXT_FREE_DEBATE, { exact: false })).toBeNull();
  });

  it('at 0 says when the refill comes back, then the day of the next free debate', async () => {
    fakeGateway(spent);
    renderAccount();
    await screen.findByText(NEXT_FREE_DEBATE, { exact: false });
    const value = valueOf('Free Debates Remaining');
    expect(value?.textContent).toBe(
      `0 ${allowanceTexts.refillNote}${NEXT_FREE_DEBATE} ${longDate(spent.nextFreeDebateAt ?? '')}`,
    );
    const date = within(value as HTMLElement).getByText(longDate('2026-12-04T09:30:00.001Z'));
    expect(date.tagName).toBe('TIME');
    expect(date.getAttribute('datetime')).toBe('2026-12-04T09:30:00.001Z');
  });

  it('at 0 gives no date when the refill does not apply (the test account’s daily reset)', async () => {
    fakeGateway({ ...spent, nextFreeDebateAt: null });
    renderAccount();
    await screen.findByText(allowanceTexts.refillNote);
    expect(screen.queryByText(NEXT_FREE_DEBATE, { exact: false })).toBeNull();
  });
});
