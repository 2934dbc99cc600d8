import { readFile } from 'node:fs/promises';

import { createAccount, expect, expectToast, signInAs, snapScreens, test, uniqueName } from './fixtures';
import { verifyEmailOf } from './mail-inbox';

test('an owner changes a role and creates an API key, then finds both in Settings → Audit, filters and exports them', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  const auth = { authorization: `Bearer ${owner.token}` };

  // A teammate joins as a member (through the API: the team's screens are teams.spec.ts's subject).
  const username = uniqueName('lin');
  const email = `${username}@example.com`;
  const signup = await request.post('/api/auth/signup', {
    data: {
      username,
      email,
      password: 'teamwork1',
      confirmPassword: 'teamwork1',
      firstName: 'Lin',
      lastName: 'Park',
      role: 'user',
    },
  });
  expect(signup.status()).toBe(201);
  await verifyEmailOf(request, email);
  const invited = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: auth,
    data: { email, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const accepted = await request.post(`/api/invitations/${(await invited.json()).token}/accept`, {
    headers: { authorization: `Bearer ${(await signup.json()).token}` },
    data: {},
  });
  expect(accepted.status()).toBe(200);

  // The owner makes them admin and creates a key, on their screens.
  await signInAs(page, owner);
  await page.goto('/settings/profile?tab=organization');
  await page
    .getByRole('list', { name: 'Members' })
    .getByRole('combobox', { name: 'Role of Lin Park' })
    .click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await expectToast(page, 'Role changed');
  await page.getByRole('tab', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('Nightly export');
  await form.getByRole('button', { name: 'Create key' }).click();
  const created = page.getByRole('dialog', { name: 'API key created' });
  const key = await created.getByRole('textbox', { name: 'API key' }).inputValue();
  await created.getByRole('button', { name: 'Done' }).click();

  // Settings → Audit: both, newest first, with who and from where; the key itself nowhere.
  await page.getByRole('tab', { name: 'Audit' }).click();
  await expect(page).toHaveURL(/\?tab=audit$/);
  const table = page.getByRole('table');
  const keyRow = table.getByRole('row').filter({ hasText: 'Created an API key' });
  const roleRow = table.getByRole('row').filter({ hasText: 'Changed a role' });
  await expect(keyRow).toContainText('Nightly export');
  await expect(keyRow).toContainText('Eve Tester');
  await expect(roleRow).toContainText('Lin Park');
  await expect(table.getByRole('row').filter({ hasText: 'Invited a member' })).toHaveCount(1);
  await expect(page.getByText(key)).toHaveCount(0);

  // A row opens to its details: the role it went from and to.
  await roleRow.getByRole('button', { name: 'Show details of Changed a role' }).click();
  await expect(table.getByText('member.role_changed')).toBeVisible();
  await snapScreens(page, table, 'audit-log', { fullPage: true });

  // Filtered to the keys created: the role change goes.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Created an API key' }).click();
  await expect(roleRow).toHaveCount(0);
  await expect(keyRow).toHaveCount(1);

  // Exported with the same filter.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Time,Actor,Actor ID,Action,Action ID,Target type,Target ID,Target,IP,Details');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',Eve Tester,');
  expect(lines[1]).toContain(',Created an API key,api_key.created,api_key,');
  expect(lines[1]).toContain(',Nightly export,');
  expect(csv).not.toContain(key);
});

test('an admin sees no Audit tab', async ({ page, request }) => {
  const owner = await createAccount(request);
  const admin = await createAccount(request);
  const invited = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { email: admin.email, role: 'admin' },
  });
  const accepted = await request.post(`/api/invitations/${(await invited.json()).token}/accept`, {
    headers: { authorization: `Bearer ${admin.token}` },
    data: {},
  });
  expect(accepted.status()).toBe(200);
  const switched = await request.post('/api/auth/switch-organization', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { organizationId: owner.organizationId },
  });
  await signInAs(page, { ...admin, token: (await switched.json()).token });
  await page.goto('/settings/profile?tab=audit');
  await expect(page.getByRole('tab', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Audit' })).toHaveCount(0);
  await expect(page.getByText('Only owners see the audit log.')).toBeVisible();
});
