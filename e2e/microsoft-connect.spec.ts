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
  // The fake consent is instant: the popup may be gone before a listener for its close is attached.
  if (!popup.isClosed()) await popup.waitForEvent('close');

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

  // The builder's email trigger names the mailbox it reads.
  await page.goto('/workflows/new');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByLabel('Trigger Type').click();
  await page.getByRole('option', { name: 'Email' }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
  const mailbox = page.getByTestId('email-trigger-mailbox');
  await expect(mailbox).toContainText('ada@contoso.example');
  await mailbox.scrollIntoViewIfNeeded();
  await snap(page, 'email-trigger-connected-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, 'email-trigger-connected-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/settings/profile?tab=tools');

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

  // Without a mailbox, the email trigger says where to connect one.
  await page.goto('/workflows/new');
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByLabel('Trigger Type').click();
  await page.getByRole('option', { name: 'Email' }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(page.getByTestId('email-trigger-mailbox')).toContainText(
    'No Microsoft 365 mailbox is connected yet',
  );
  await page.getByTestId('email-trigger-mailbox').scrollIntoViewIfNeeded();
  await snap(page, 'email-trigger-not-connected-phone-dark');
  await page.getByRole('link', { name: 'connect it in Settings' }).click();
  // The new workflow is not saved: the builder asks before leaving it.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?tab=tools$/);
});

test('the callback without an opener returns to Settings with the outcome', async ({ page, request }) => {
  await signInAs(page, await createAccount(request));
  await page.goto('/api/auth/microsoft/callback?state=unknown&code=nothing');
  await expect(page).toHaveURL(/\/settings\/profile\?tab=tools$/);
  await expectToast(page, 'Connection Error');
  await expectToast(page, 'Failed to connect Microsoft 365 account');
});

test('a sign-in finished in another browser is refused and connects nothing', async ({
  page,
  request,
  browser,
}) => {
  const admin = await createAccount(request);
  await signInAs(page, admin);
  await page.goto('/settings/profile?tab=tools');
  const card = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(card.getByText('Not Connected')).toBeVisible();

  // The admin starts a sign-in in their own browser and hands its address to someone else.
  const started = await page.request.get('/api/auth/microsoft', {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(started.status()).toBe(200);
  const { authUrl } = (await started.json()) as { authUrl: string };

  // That person's browser goes through Microsoft's consent to the callback, without the admin's
  // cookie. Scripts off, so the callback page stays put instead of moving on to Settings.
  const elsewhere = await browser.newContext({ javaScriptEnabled: false });
  try {
    const other = await elsewhere.newPage();
    await other.goto(authUrl);
    await expect(other).toHaveURL(/\/api\/auth\/microsoft\/callback\?/);
    await expect(
      other.getByText('This sign-in was started in another browser. Start it again from Settings.'),
    ).toBeVisible();
  } finally {
    await elsewhere.close();
  }

  await page.reload();
  await expect(card.getByText('Not Connected')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Connect' })).toBeEnabled();
});
