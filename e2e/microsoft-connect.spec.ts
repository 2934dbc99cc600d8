import { createAccount, expect, expectToast, signInAs, snap, test } from './fixtures';

test('connect and disconnect Microsoft 365 through the sign-in popup', async ({ page, request }) => {
  test.setTimeout(60_000);
  await signInAs(page, await createAccount(request));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings/profile?tab=tools');

  const card = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(card.getByText('Not Connected')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'microsoft-not-connected-light');

  // The popup goes through the fake Microsoft consent (given at once) to our callback, which posts
  // the outcome to this page and closes.
  const popupOpened = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'Connect' }).click();
  const popup = await popupOpened;
  await popup.waitForEvent('close');

  await expectToast(page, 'Microsoft 365 Connected');
  await expectToast(page, 'Email monitoring is now active for your workflows');
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  await expect(card.getByText('Ada Lovelace')).toBeVisible();
  await expect(card.getByText('ada@contoso.example')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'microsoft-connected-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, 'microsoft-connected-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'microsoft-connected-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await snap(page, 'microsoft-connected-phone-light');
  await page.setViewportSize({ width: 1280, height: 900 });

  await card.getByRole('button', { name: 'Disconnect' }).click();
  await expectToast(page, 'Microsoft 365 Disconnected');
  await expect(card.getByText('Not Connected')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Connect' })).toBeEnabled();
  await page.emulateMedia({ colorScheme: 'dark' });
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'microsoft-not-connected-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'microsoft-not-connected-phone-dark');
});

test('the callback without an opener returns to Settings with the outcome', async ({ page, request }) => {
  await signInAs(page, await createAccount(request));
  await page.goto('/api/auth/microsoft/callback?state=unknown&code=nothing');
  await expect(page).toHaveURL(/\/settings\/profile\?tab=tools$/);
  await expectToast(page, 'Connection Error');
  await expectToast(page, 'Failed to connect Microsoft 365 account');
});
