import type { Page } from 'playwright-core';

/** Creates an account through /login and waits for /account, as a new user would. */
export async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create one' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.waitForURL('**/account');
}
