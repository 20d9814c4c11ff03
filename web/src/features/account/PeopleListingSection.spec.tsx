import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { signedInState } from '../../test/fixtures';
import { AccountPage } from './AccountPage';
import type { PeopleListing } from './people-listing.api';
import { LISTING_UNREADABLE, ratedStatus } from './PeopleListingSection';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

interface SetListing {
  readonly listed: boolean;
  readonly name: string | null;
}

type Reply = { data: object } | { errors: Array<{ message: string; extensions: object }> };

/**
 * The gateway: `stored` for the listing query; `answer` for each setPeopleListing, whose
 * variables are recorded. Nothing else answers.
 */
function fakeGateway(stored: PeopleListing | null, answer: (set: SetListing) => Reply) {
  const sets: SetListing[] = [];
  globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
    const request = JSON.parse(String(init?.body)) as { query: string; variables: SetListing };
    const reply = (body: object) => ({ ok: true, status: 200, json: async () => body });
    if (request.query.includes('query PeopleListing')) {
      return stored
        ? reply({ data: { peopleListing: stored } })
        : reply({ errors: [{ message: 'The community service is not available' }] });
    }
    if (request.query.includes('mutation SetPeopleListing')) {
      sets.push(request.variables);
      return reply(answer(request.variables));
    }
    return new Promise<never>(() => undefined);
  }) as unknown as typeof fetch;
  return sets;
}

const renderAccount = (displayName: string | null) =>
  renderWithProviders(<AccountPage />, {
    preloadedState: signedInState({ displayName }),
    route: '/account',
  });

const section = () => screen.getByRole('region', { name: 'People board' });
const checkbox = () =>
  within(section()).getByRole('checkbox', { name: 'List me on the People board' });
const nameField = () =>
  within(section()).getByRole('textbox', { name: 'Name on the board' }) as HTMLInputElement;

describe(ratedStatus.name, () => {
  it('says how many are rated, the verb agreeing with the count', () => {
    expect(ratedStatus(0)).toBe(
      '0 of your shared debates against a model are rated; you appear once three are.',
    );
    expect(ratedStatus(1)).toBe(
      '1 of your shared debates against a model is rated; you appear once three are.',
    );
    expect(ratedStatus(4)).toBe(
      '4 of your shared debates against a model are rated; you appear once three are.',
    );
  });
});

describe('the account page’s People board section', () => {
  it('is off by default, the name field prefilled with the display name; Save lists the user under it', async () => {
    const sets = fakeGateway({ listed: false, name: null, ratedDebates: 2 }, ({ name }) => ({
      data: { setPeopleListing: { listed: true, name, ratedDebates: 2 } },
    }));
    renderAccount('Ada Lovelace');
    await within(section()).findByText('You are not listed.');
    expect(
      within(section()).getByText(
        '2 of your shared debates against a model are rated; you appear once three are.',
      ),
    ).toBeTruthy();
    expect((checkbox() as HTMLInputElement).checked).toBe(false);
    expect(nameField().value).toBe('Ada Lovelace');
    expect(nameField().maxLength).toBe(80);
    // Required only when listing.
    expect(nameField().required).toBe(false);

    fireEvent.click(checkbox());
    expect(nameField().required).toBe(true);
    fireEvent.change(nameField(), { target: { value: '  Ada L.  ' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Save' }));
    await within(section()).findByText('You are listed as Ada L..');
    expect(sets).toEqual([{ listed: true, name: 'Ada L.' }]);
    expect(within(section()).queryByRole('alert')).toBeNull();
  });

  it('shows the stored listing: checked, under its name rather than the display name', async () => {
    fakeGateway({ listed: true, name: 'Countess', ratedDebates: 3 }, () => ({ data: {} }));
    renderAccount('Ada Lovelace');
    await within(section()).findByText('You are listed as Countess.');
    expect((checkbox() as HTMLInputElement).checked).toBe(true);
    expect(nameField().value).toBe('Countess');
  });

  it('leaves the name empty when there is no display name, and unlisting sends no name', async () => {
    const sets = fakeGateway({ listed: true, name: 'Countess', ratedDebates: 1 }, () => ({
      data: { setPeopleListing: { listed: false, name: null, ratedDebates: 1 } },
    }));
    renderAccount(null);
    await within(section()).findByText('You are listed as Countess.');
    fireEvent.click(checkbox());
    fireEvent.click(within(section()).getByRole('button', { name: 'Save' }));
    await within(section()).findByText('You are not listed.');
    expect(sets).toEqual([{ listed: false, name: null }]);
  });

  it('shows a refusal in an alert, and the listing stays as stored', async () => {
    const refusal = 'That name is a model’s: choose another.';
    fakeGateway({ listed: false, name: null, ratedDebates: 0 }, () => ({
      errors: [{ message: refusal, extensions: { code: 'BAD_USER_INPUT' } }],
    }));
    renderAccount(null);
    await within(section()).findByText('You are not listed.');
    expect(nameField().value).toBe('');
    fireEvent.click(checkbox());
    fireEvent.change(nameField(), { target: { value: 'GPT-4o' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Save' }));
    expect((await within(section()).findByRole('alert')).textContent).toBe(refusal);
    expect(within(section()).getByText('You are not listed.')).toBeTruthy();
  });

  it('says so when the listing cannot be read', async () => {
    fakeGateway(null, () => ({ data: {} }));
    renderAccount('Ada Lovelace');
    expect(await within(section()).findByText(LISTING_UNREADABLE)).toBeTruthy();
    expect(within(section()).queryByRole('checkbox')).toBeNull();
  });
});
