import { createAccount, expect, expectToast, signInAs, snapScreens, test } from './fixtures';

// Settings → Organization: an owner lists the domains whose email starts trusted runs, and sets where
// approvals are posted.

test('an owner saves the trusted sender domains, and a bad entry is refused by name', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  await signInAs(page, owner);
  await page.goto('/settings/profile?tab=organization');

  const card = page.getByTestId('trusted-senders-card');
  await expect(
    card.getByText(
      'Emails from other domains start runs marked untrusted: their write tool calls wait for approval and agent memory learns nothing from them.',
    ),
  ).toBeVisible();
  const field = card.getByRole('textbox', { name: 'Trusted sender domains' });
  await expect(field).toHaveValue('');
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();

  await field.fill('contoso.com\nhttps://fabrikam.com');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText(/"https:\/\/fabrikam\.com" is not a domain name/)).toBeVisible();
  await snapScreens(page, card, 'trusted-senders-refused', { waitForToasts: false });

  await field.fill('Contoso.com\nfabrikam.com\n');
  await card.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Trusted sender domains saved');
  await expect(field).toHaveValue('contoso.com\nfabrikam.com');

  // Kept: a reload shows the saved list.
  await page.reload();
  await expect(page.getByTestId('trusted-senders-card').getByRole('textbox')).toHaveValue(
    'contoso.com\nfabrikam.com',
  );
  await snapScreens(page, page.getByTestId('trusted-senders-card'), 'trusted-senders-saved');
});

test('an owner sets the approval notification URL, which is then shown only as its origin', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  await signInAs(page, owner);
  await page.goto('/settings/profile?tab=organization');

  const card = page.getByTestId('approval-notifications-card');
  await expect(
    card.getByText('No notification URL: approvers hear of approvals by email and in the Inbox.'),
  ).toBeVisible();
  await card
    .getByRole('textbox', { name: 'Notification URL' })
    .fill('https://hooks.slack.com/services/T0001/B0002/s3cr3tToken');
  await card.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Notification URL saved');
  await expect(card.getByText('Approvals are posted to https://hooks.slack.com/…')).toBeVisible();

  // Kept, and never shown whole again.
  await page.reload();
  const reloaded = page.getByTestId('approval-notifications-card');
  await expect(reloaded.getByText('Approvals are posted to https://hooks.slack.com/…')).toBeVisible();
  await expect(page.getByText('s3cr3tToken')).toHaveCount(0);
  await snapScreens(page, reloaded, 'approval-notifications-saved');
});
