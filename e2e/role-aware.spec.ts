import { createAccount, expect, snapScreens, test, uniqueName } from './fixtures';
import { verifyEmailOf } from './mail-inbox';

// A member sees what they may not change, and why, before trying; a promotion reaches their open page.

test('a member sees connections read-only with the reason; a promotion shows Admin and Edit without reload', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createAccount(request);

  // Mia signs up and joins the owner's organization as a member.
  const username = uniqueName('mia');
  const email = `${username}@example.com`;
  const signup = await request.post('/api/auth/signup', {
    data: {
      username,
      email,
      password: 'e2e-password',
      confirmPassword: 'e2e-password',
      firstName: 'Mia',
      lastName: 'Member',
      role: 'user',
    },
  });
  expect(signup.status()).toBe(201);
  await verifyEmailOf(request, email);
  const invited = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: { email, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const miaToken = (await signup.json()).token as string;
  const accepted = await request.post(`/api/invitations/${(await invited.json()).token}/accept`, {
    headers: { Authorization: `Bearer ${miaToken}` },
    data: {},
  });
  expect(accepted.status()).toBe(200);
  const switched = await request.post('/api/auth/switch-organization', {
    headers: { Authorization: `Bearer ${miaToken}` },
    data: { organizationId: owner.organizationId },
  });
  expect(switched.status()).toBe(200);
  const memberToken = (await switched.json()).token as string;

  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const mia = await memberContext.newPage();
    await mia.addInitScript((value) => localStorage.setItem('authToken', value), memberToken);
    await mia.goto('/settings/profile?tab=tools');

    // Before any edit: the reason, the values, and Edit disabled.
    const reason = mia.getByTestId('connections-read-only');
    await expect(reason).toHaveText('Only owners and admins can change model connections.');
    const openai = mia.getByRole('region', { name: 'OpenAI', exact: true });
    await expect(openai.getByRole('button', { name: 'Edit' })).toBeDisabled();
    await expect(openai.getByRole('switch')).toBeDisabled();
    await snapScreens(mia, reason, 'role-aware-tools-member', { waitForToasts: false, fullPage: true });

    // Settings → Organization: the role and what it cannot do.
    await mia.getByRole('tab', { name: 'Organization' }).click();
    await expect(mia.getByTestId('organization-read-only')).toHaveText(
      'Only owners and admins can rename the organization or invite people.',
    );
    await expect(mia.getByRole('button', { name: 'Manage Organization' })).toBeDisabled();
    await snapScreens(mia, mia.getByTestId('organization-read-only'), 'role-aware-organization-member', {
      waitForToasts: false,
    });
    // Settings → Billing: owners change the plan.
    await mia.getByRole('tab', { name: 'Billing' }).click();
    await expect(mia.getByTestId('billing-read-only')).toHaveText(
      'Only the organization owner can change billing.',
    );

    await mia.getByRole('tab', { name: 'Tools' }).click();
    await expect(reason).toBeVisible();
    // A marker that a reload would lose.
    await mia.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));

    // The owner promotes Mia from their own browser.
    const ownerPage = await ownerContext.newPage();
    await ownerPage.addInitScript((value) => localStorage.setItem('authToken', value), owner.token);
    await ownerPage.goto('/settings/profile?tab=organization');
    const members = ownerPage.getByRole('list', { name: 'Members' });
    await members.getByRole('combobox', { name: 'Role of Mia Member' }).click();
    await ownerPage.getByRole('option', { name: 'Admin' }).click();
    await expect(members.getByRole('combobox', { name: 'Role of Mia Member' })).toHaveText('Admin');

    // Mia's open page follows: the reason goes, Edit works, and the role reads Admin.
    await expect(reason).toHaveCount(0, { timeout: 15_000 });
    await expect(openai.getByRole('button', { name: 'Edit' })).toBeEnabled();
    await mia.getByRole('tab', { name: 'Organization' }).click();
    await expect(mia.getByText('Your role', { exact: true }).locator('..')).toContainText('Admin');
    await expect(mia.getByTestId('organization-read-only')).toHaveCount(0);
    expect(await mia.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  } finally {
    await memberContext.close();
    await ownerContext.close();
  }
});
