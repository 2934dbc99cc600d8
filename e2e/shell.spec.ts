import path from 'node:path';

import { createAccount, expect, screenshotDir, signInAs, test } from './fixtures';

test('an unknown path shows the not-found screen to a signed-in user', async ({ page, request }) => {
  await signInAs(page, await createAccount(request));
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('a signed-out visitor of any other path is sent to the login form', async ({ page }) => {
  // …which comes back to the page after signing in (lib/invite-links.ts, signInFirstHref).
  await page.goto('/agents');
  await expect(page).toHaveURL(/\/login\?next=%2Fagents$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/login\?next=%2Fno%2Fsuch%2Fpage$/);
});

test('the chosen theme survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/light/);
  await page.getByRole('button', { name: 'Toggle theme' }).first().click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(
    await page.evaluate(() => Object.keys(localStorage).find((k) => k.endsWith('ui-theme'))),
  ).toBeTruthy();
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
});

test('the top navigation marks the active page and the stats come from the server', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await signInAs(page, account);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Agents' }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole('heading', { name: 'AI Agents' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Agents' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByText(account.email).first()).toBeVisible();
});

test('on a phone, the slide-in menu navigates and signs out', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, await createAccount(request));
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await menu.getByRole('link', { name: 'Workflows' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('from 1024 px the header fits its nine links, a two-digit Inbox count and a long organization name', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const renamed = await request.put(`/api/organizations/${account.organizationId}`, {
    headers: { authorization: `Bearer ${account.token}` },
    data: { name: "Eve Tester's Organization for Competitor Price Digests" },
  });
  expect(renamed.ok()).toBe(true);
  // Twelve approvals waiting for the viewer (approvals.spec.ts makes a real one): only the count shows here.
  await page.route('**/api/approvals?*', (route) =>
    new URL(route.request().url()).searchParams.get('mine') === 'true'
      ? route.fulfill({
          json: Array.from({ length: 12 }, (_, i) => ({ id: `approval-${i}`, canDecide: true })),
        })
      : route.fallback(),
  );
  await signInAs(page, account);

  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Inbox, 12 waiting', exact: true })).toBeVisible();
    await expect(page.getByTestId('inbox-count')).toHaveText('12');
    // Nothing scrolls sideways, and the last control (Log out) is whole on the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const logOut = await page.getByRole('button', { name: 'Log out' }).boundingBox();
    expect(logOut!.x + logOut!.width).toBeLessThanOrEqual(width);
    await expect(nav.getByRole('link')).toHaveCount(9);
    if (screenshotDir) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300);
        await page
          .locator('header')
          .first()
          .screenshot({
            path: path.join(screenshotDir, `header-${width}-${scheme}.png`),
          });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
});
