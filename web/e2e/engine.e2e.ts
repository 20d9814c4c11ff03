import { describe, expect, it } from '@jest/globals';
import { useBrowser } from './support/browser.js';

describe('the engine page', () => {
  const session = useBrowser();

  it('draws a built-in topic fetched from the services through the gateway', async () => {
    const { page, app } = session;
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ catalog { topics } }' }),
    });
    const { data } = (await response.json()) as { data: { catalog: { topics: string[] } } };

    await page.goto('/engine');
    const box = page.getByLabel('Debate topic');
    const draw = page.getByRole('button', { name: 'Random topic' });
    await draw.click(); // waits until the catalog has arrived and the button is enabled
    const first = await box.inputValue();
    expect(data.catalog.topics).toContain(first);

    await draw.click();
    const second = await box.inputValue();
    expect(data.catalog.topics).toContain(second);
    expect(second).not.toBe(first);
  });
});
