import path from 'node:path';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

import { verifyEmailOf } from './mail-inbox';

export type Account = {
  token: string;
  email: string;
  password: string;
  username: string;
  organizationId: string;
};

let counter = 0;
export function uniqueName(prefix: string) {
  return `${prefix}${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 5)}`;
}

/** A fresh account made through the API, for tests whose subject is not the signup form. */
export async function createAccount(request: APIRequestContext): Promise<Account> {
  const username = uniqueName('e2e');
  const email = `${username}@example.com`;
  const password = 'e2e-password';
  const res = await request.post('/api/auth/signup', {
    data: {
      username,
      email,
      password,
      confirmPassword: password,
      firstName: 'Eve',
      lastName: 'Tester',
      role: 'user',
    },
  });
  expect(res.status()).toBe(201);
  const body = await res.json();
  // Verified, as its owner would after opening the mailed link: accepting invitations needs it.
  await verifyEmailOf(request, email);
  return { token: body.token, email, password, username, organizationId: body.organization.id };
}

/** Fills the open signup form as Ada Lovelace (email `<username>@example.com`, password analytical1) and submits it. */
export async function signUpAsAda(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Password', { exact: true }).fill('analytical1');
  await page.getByLabel('Confirm Password').fill('analytical1');
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Points the organization's OpenAI connection (chat and embeddings) at a fake model server. */
export async function connectFakeModel(request: APIRequestContext, account: Account, fakeUrl: string) {
  const res = await request.put('/api/tools/configurations/openai_config', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { config: { baseUrl: fakeUrl, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  expect(res.ok()).toBe(true);
}

/** Opens the app already signed in as `account` (the token sits where the app keeps it). */
export async function signInAs(page: Page, account: Account) {
  await page.addInitScript((token) => {
    if (!window.sessionStorage.getItem('e2e-signed-in')) {
      window.localStorage.setItem('authToken', token);
      window.sessionStorage.setItem('e2e-signed-in', '1');
    }
  }, account.token);
}

/** A toast in the notifications region (Radix also copies its text into a live region for screen readers). */
export async function expectToast(page: Page, text: string) {
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true }),
  ).toBeVisible();
}

/** Optional screenshots for reviewing the screens: E2E_SCREENSHOTS=/tmp/dir. */
export const screenshotDir = process.env.E2E_SCREENSHOTS;

/** Saves the page as {screenshotDir}/{name}.png when screenshots are asked for. */
export async function snap(page: Page, name: string, { fullPage = false } = {}) {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
}

/**
 * Calls `shoot` in each scheme (light, dark) and size (desktop 1280×900, phone 390×844) that review
 * screenshots are taken in, with the page set to it; back to light desktop afterwards.
 */
export async function inEachSchemeAndSize(
  page: Page,
  shoot: (scheme: 'light' | 'dark', size: 'desktop' | 'phone') => Promise<void>,
) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await shoot(scheme, size);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Screenshots of a screen or dialog for review: light and dark, desktop (1280×900) and phone (390×844),
 * named `{name}-{scheme}-{size}`; `subject` must be visible in each. Back to light desktop afterwards.
 * A toast would cover a dialog's header on a phone, so by default it waits until none is shown.
 */
export async function snapScreens(
  page: Page,
  subject: Locator,
  name: string,
  { waitForToasts = true, fullPage = false } = {},
) {
  if (!screenshotDir) return;
  if (waitForToasts) await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 10_000 });
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await subject.scrollIntoViewIfNeeded();
    await expect(subject).toBeVisible();
    // The open animation and a theme change settle before the picture.
    await page.waitForTimeout(400);
    await snap(page, `${name}-${scheme}-${size}`, { fullPage });
  });
}

export const test = base;
export { expect };

/** The sticky site header would cover the top of a landing section's screenshot. */
export const HIDE_SITE_HEADER = 'header.sticky, header.sticky * { visibility: hidden !important; }';

/** A landing page section in each scheme and size, scrolled into view (`{name}-{scheme}-{size}.png`). */
export async function snapSection(page: Page, section: Locator, name: string) {
  if (!screenshotDir) return;
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await section.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await section.screenshot({
      path: path.join(screenshotDir, `${name}-${scheme}-${size}.png`),
      style: HIDE_SITE_HEADER,
    });
  });
}
