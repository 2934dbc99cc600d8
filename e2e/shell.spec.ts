import { createAccount, expect, signInAs, test } from './fixtures';

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
