import type { APIRequestContext } from '@playwright/test';

import {
  createAccount,
  expect,
  expectToast,
  signInAs,
  snapScreens,
  test,
  uniqueName,
  type Account,
} from './fixtures';
import { verifyEmailOf } from './mail-inbox';

const TAB = '/settings/profile?tab=api-keys';

const withKey = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

test('an owner creates an API key, calls the API with it, sees it used and revokes it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // A new organization is on a trial, which includes API access.
  const owner = await createAccount(request);
  await signInAs(page, owner);

  // Settings → API keys, through the tab.
  await page.goto('/settings/profile');
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?tab=api-keys$/);
  await expect(page.getByText('Authorization: Bearer crw_…')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read the API key guide' })).toHaveAttribute(
    'href',
    '/docs/api-keys',
  );
  const empty = page.getByText('No API keys yet');
  await expect(empty).toBeVisible();
  await expect(page.getByText('Plan limit reached')).toHaveCount(0);
  await snapScreens(page, empty, 'api-keys-empty', { fullPage: true });

  // Create a key that expires in 30 days.
  await page.getByRole('button', { name: 'Create key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await form.getByLabel('Name').fill('CI pipeline');
  await expect(form.getByText('The key expires on')).toBeVisible();
  await form.getByRole('combobox', { name: 'Expiry' }).click();
  await page.getByRole('option', { name: 'Custom date' }).click();
  await expect(form.getByLabel('Expiry date')).toBeVisible();
  await form.getByRole('combobox', { name: 'Expiry' }).click();
  await page.getByRole('option', { name: '30 days' }).click();
  await snapScreens(page, form, 'api-keys-create-form', { waitForToasts: false });
  await form.getByRole('button', { name: 'Create key' }).click();

  // The key, once: copied with the button, and in a curl example for this server.
  const created = page.getByRole('dialog', { name: 'API key created' });
  await expect(created.getByText('Copy this key now. You will not be able to see it again.')).toBeVisible();
  const field = created.getByRole('textbox', { name: 'API key' });
  await expect(field).toHaveValue(/^crw_[A-Za-z0-9_-]{43}$/);
  const key = await field.inputValue();
  await created.getByRole('button', { name: 'Copy API key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  const origin = new URL(page.url()).origin;
  await expect(
    created.getByText(`curl -H "Authorization: Bearer ${key}" ${origin}/api/workflows`),
  ).toBeVisible();
  await snapScreens(page, created, 'api-keys-created');
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();
  // Closing forgets it: the page holds only the prefix.
  await expect(page.getByText(key)).toHaveCount(0);

  const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: 'CI pipeline' });
  await expect(row).toContainText(`${key.slice(0, 12)}…`);
  await expect(row).toContainText('Eve Tester');
  await expect(row).toContainText('Never used');

  // The key works for the API, as a member of this organization; 'last used' follows.
  const list = await request.get('/api/workflows', withKey(key));
  expect(list.status()).toBe(200);
  expect(Array.isArray(await list.json())).toBe(true);
  await page.reload();
  await expect(row).not.toContainText('Never used');
  await expect(row.locator('time')).toHaveCount(3);
  await snapScreens(
    page,
    page.getByLabel('CI pipeline', { exact: true }).filter({ visible: true }),
    'api-keys-list',
    {
      fullPage: true,
    },
  );

  // Revoke: the same call is refused at once.
  await row.getByRole('button', { name: 'Revoke CI pipeline' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('stop working at once');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expectToast(page, 'API key revoked');
  await expect(page.getByText('No API keys yet')).toBeVisible();
  expect((await request.get('/api/workflows', withKey(key))).status()).toBe(401);
});

test('the list shows each expiry; a plan without API access gets the upgrade prompt', async ({
  page,
  request,
}) => {
  const owner = await createAccount(request);
  await signInAs(page, owner);
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const key = (name: string, extra: object) => ({
    id: crypto.randomUUID(),
    name,
    prefix: `crw_${Math.random().toString(36).slice(2, 10)}`,
    createdAt: new Date(now - 40 * day).toISOString(),
    expiresAt: null,
    lastUsedAt: null,
    createdBy: { id: 'u1', name: 'Eve Tester' },
    ...extra,
  });
  await page.route(`**/api/organizations/${owner.organizationId}/api-keys`, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          json: [
            key('Nightly export to the data warehouse (production)', {
              lastUsedAt: new Date(now - 5 * 60 * 1000).toISOString(),
            }),
            key('Staging deploy', { expiresAt: new Date(now + 3 * day).toISOString() }),
            key('Old laptop', { expiresAt: new Date(now - 2 * day).toISOString(), createdBy: null }),
            key('Zapier', { expiresAt: new Date(now + 300 * day).toISOString() }),
          ],
        })
      : route.fulfill({
          status: 402,
          json: {
            message:
              'Your Starter plan does not include API access. Upgrade to Professional or Enterprise to use API keys.',
            code: 'plan_limit',
            limit: 'api_access',
            plan: 'starter',
          },
        }),
  );
  // The organization as if its trial had become a Starter subscription.
  await page.route('**/api/subscription-status', async (route) => {
    const real = await route.fetch();
    await route.fulfill({
      response: real,
      json: { ...(await real.json()), status: 'active', plan: 'starter' },
    });
  });
  await page.goto(TAB);

  const table = page.getByRole('table', { name: 'API keys' });
  await expect(table.getByRole('row', { name: 'Old laptop' })).toContainText('Expired');
  await expect(table.getByRole('row', { name: 'Old laptop' })).toContainText('Deleted user');
  await expect(table.getByRole('row', { name: 'Zapier' })).toContainText('Never used');
  await expect(table.getByRole('row', { name: /Nightly export/ })).toContainText('Never');
  await expect(table.getByRole('row', { name: /Nightly export/ })).toContainText('5 minutes ago');
  const notice = page.getByRole('alert').filter({ hasText: 'Plan limit reached' });
  await expect(notice).toContainText('does not include API access');
  await expect(notice.getByRole('link', { name: 'Upgrade' })).toHaveAttribute(
    'href',
    '/subscribe?plan=professional',
  );
  await snapScreens(page, notice, 'api-keys-states', { fullPage: true });

  await page.getByRole('button', { name: 'Create key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('More');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByText('Plan limit reached')).toBeVisible();
  await expect(form.getByRole('link', { name: 'Upgrade' })).toHaveAttribute(
    'href',
    '/subscribe?plan=professional',
  );
  await snapScreens(page, form, 'api-keys-plan-limit', { waitForToasts: false });
});

async function joinAsMember(request: APIRequestContext, owner: Account): Promise<Account> {
  const username = uniqueName('mem');
  const email = `${username}@example.com`;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const invitation = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: auth(owner.token),
    data: { email, role: 'member' },
  });
  expect(invitation.status()).toBe(201);
  const token = new URL((await invitation.json()).inviteUrl).pathname.split('/').pop()!;
  const signup = await request.post('/api/auth/signup', {
    data: {
      username,
      email,
      password: 'e2e-password',
      confirmPassword: 'e2e-password',
      firstName: 'Max',
      lastName: 'Member',
      role: 'user',
    },
  });
  expect(signup.status()).toBe(201);
  const own = await signup.json();
  // Accepting needs the invited address verified (the link mailed after sign-up).
  await verifyEmailOf(request, email);
  const accept = await request.post(`/api/invitations/${token}/accept`, { headers: auth(own.token) });
  expect(accept.status()).toBe(200);
  const switched = await request.post('/api/auth/switch-organization', {
    headers: auth(own.token),
    data: { organizationId: owner.organizationId },
  });
  expect(switched.status()).toBe(200);
  const body = await switched.json();
  return {
    token: body.token,
    email,
    password: 'e2e-password',
    username,
    organizationId: owner.organizationId,
  };
}

test('a member reads what keys do but only owners and admins manage them', async ({ page, request }) => {
  const owner = await createAccount(request);
  const member = await joinAsMember(request, owner);
  await signInAs(page, member);
  await page.goto(TAB);
  const why = page.getByText('Only owners and admins manage API keys', { exact: true });
  await expect(why).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'API keys' })).toHaveCount(0);
  await expect(page.getByText('Authorization: Bearer crw_…')).toBeVisible();
  await snapScreens(page, why, 'api-keys-member', { fullPage: true });
});
