import { accountMessages } from '@crewline/contracts';
import type { APIRequestContext } from '@playwright/test';

import {
  createAccount,
  expect,
  expectToast,
  screenshotDir,
  signInAs,
  snap,
  test,
  uniqueName,
  snapScreens,
} from './fixtures';
import { verifyEmailOf } from './mail-inbox';
import { setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

const fakeUrl = `http://127.0.0.1:${fakeLlmPort}/v1`;

async function renameOrganization(request: APIRequestContext, token: string, orgId: string, name: string) {
  const res = await request.put(`/api/organizations/${orgId}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name },
  });
  expect(res.status()).toBe(200);
}

test('an owner invites a teammate, who signs up through the link, joins, is promoted and removed', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { account: owner, workflow } = await setUpOneAgentWorkflow(request, fakeUrl);
  const inviteeName = uniqueName('lin');
  const inviteeEmail = `${inviteeName}@example.com`;

  // The owner renames the organization in Settings → Organization; the navigation follows.
  await signInAs(page, owner);
  await page.goto('/settings/profile?tab=organization');
  await page.getByRole('button', { name: 'Manage Organization' }).click();
  const rename = page.getByRole('dialog', { name: 'Manage Organization' });
  const orgName = uniqueName('Acme Labs ');
  await rename.getByLabel('Organization name').fill(orgName);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Organization renamed');
  await expect(page.getByRole('button', { name: `Organization: ${orgName}` })).toBeVisible();

  const members = page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(1);
  await expect(members.getByRole('listitem').first()).toContainText('(you)');
  await expect(members.getByRole('button', { name: 'Leave organization' })).toBeVisible();

  // Invite a member: the dialog shows the link, which the copy button puts on the clipboard.
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Member' });
  await invite.getByLabel('Email').fill(inviteeEmail);
  await expect(invite.getByLabel('Role')).toHaveText('Member');
  await invite.getByRole('button', { name: 'Create invitation' }).click();
  const created = page.getByRole('dialog', { name: 'Invitation created' });
  const linkField = created.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkField).toHaveValue(/\/invite\/[A-Za-z0-9_-]+$/);
  const link = await linkField.inputValue();
  // The e2e server has a mail transport (SMTP_URL): the link is emailed too.
  await expect(created.getByText(`We emailed this link to ${inviteeEmail}`)).toBeVisible();
  await created.getByRole('button', { name: 'Copy invitation link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await snapScreens(page, created, 'teams-invite-link');
  await created.getByRole('button', { name: 'Done' }).click();

  const pending = page.getByRole('list', { name: 'Pending invitations' });
  await expect(pending.getByRole('listitem', { name: inviteeEmail })).toContainText('Invited by Eve Tester');
  await snapScreens(page, pending, 'teams-organization-tab', { fullPage: true });

  // The invitee opens the link signed out, in a browser of their own, and signs up through it.
  const inviteeContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link);
  await expect(invitee.getByText(`Eve Tester invited you to join ${orgName} as a member.`)).toBeVisible();
  await snapScreens(invitee, invitee.getByRole('link', { name: 'Sign up' }), 'teams-invite-signed-out', {
    waitForToasts: false,
  });
  await invitee.getByRole('link', { name: 'Sign up' }).click();
  await expect(invitee).toHaveURL(/\/signup\?email=.+&invite=/);
  await expect(invitee.getByLabel('Email')).toHaveValue(inviteeEmail);
  await invitee.getByLabel('Username').fill(inviteeName);
  await invitee.getByLabel('First Name').fill('Lin');
  await invitee.getByLabel('Last Name').fill('Park');
  await invitee.getByLabel('Password', { exact: true }).fill('teamwork1');
  await invitee.getByLabel('Confirm Password').fill('teamwork1');
  await invitee.getByRole('button', { name: 'Create Account' }).click();
  await expect(invitee).toHaveURL(new URL(link).pathname);
  // Accepting needs the invited address verified: the invitee opens the link mailed after sign-up.
  await expect(invitee.getByText(accountMessages.verifyToAcceptInvitation)).toBeVisible();
  await verifyEmailOf(request, inviteeEmail);
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invitee).toHaveURL(/\/dashboard$/);
  await expect(invitee.getByRole('button', { name: `Organization: ${orgName}` })).toBeVisible();
  await invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
  await expect(invitee.getByText(workflow.name)).toBeVisible();

  // The member sees the team but no controls but Leave, and Manage Organization needs the admin role.
  await invitee.goto('/settings/profile?tab=organization');
  const inviteeMembers = invitee.getByRole('list', { name: 'Members' });
  await expect(inviteeMembers.getByRole('listitem')).toHaveCount(2);
  await expect(inviteeMembers.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(invitee.getByRole('button', { name: 'Manage Organization' })).toBeDisabled();
  await expect(invitee.getByRole('button', { name: 'Invite Member' })).toHaveCount(0);

  // The owner sees the new member live, and makes them admin.
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByText('No pending invitations.', { exact: false })).toBeVisible();
  await members.getByRole('combobox', { name: 'Role of Lin Park' }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await expectToast(page, 'Role changed');

  await invitee.reload();
  await expect(invitee.getByText('Your role').locator('..')).toContainText('Admin');
  await expect(invitee.getByRole('button', { name: 'Manage Organization' })).toBeEnabled();
  await expect(invitee.getByRole('button', { name: 'Invite Member' })).toBeVisible();
  // An admin cannot touch the owner: the controls say which role they need.
  await expect(
    invitee.getByRole('list', { name: 'Members' }).getByRole('button', { name: 'Remove Eve Tester' }),
  ).toBeDisabled();

  // The owner removes them.
  await members.getByRole('button', { name: 'Remove Lin Park' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove member?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expectToast(page, 'Member removed');
  await expect(members.getByRole('listitem')).toHaveCount(1);

  // Their open page moves at once (the live connection closes) to their own organization, made at
  // signup, and says so; their next navigation stays there, without the owner's work.
  const ownOrganization = invitee.getByRole('button', { name: "Organization: Lin Park's Organization" });
  await expect(ownOrganization).toBeVisible({ timeout: 10_000 });
  await expect(invitee).toHaveURL(/\/dashboard$/);
  await invitee.goto('/workflows');
  await expect(ownOrganization).toBeVisible();
  await expect(invitee.getByText('No workflows created yet')).toBeVisible();
  await expect(invitee.getByText(workflow.name)).toHaveCount(0);

  // The used link no longer works.
  await invitee.goto(link);
  await expect(invitee.getByText('This invitation is no longer valid')).toBeVisible();
  await inviteeContext.close();
});

test('a user in two organizations switches between them, and the choice survives a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const teamA = await setUpOneAgentWorkflow(request, fakeUrl);
  const teamB = await setUpOneAgentWorkflow(request, fakeUrl);
  const nameA = uniqueName('Team A ');
  const nameB = uniqueName('Team B ');
  await renameOrganization(request, teamA.account.token, teamA.account.organizationId, nameA);
  await renameOrganization(request, teamB.account.token, teamB.account.organizationId, nameB);

  // A invites B's user, who accepts through the API.
  const inviteRes = await request.post(`/api/organizations/${teamA.account.organizationId}/invitations`, {
    headers: teamA.headers,
    data: { email: teamB.account.email, role: 'member' },
  });
  expect(inviteRes.status()).toBe(201);
  const { token } = await inviteRes.json();
  const acceptRes = await request.post(`/api/invitations/${token}/accept`, { headers: teamB.headers });
  expect(acceptRes.status()).toBe(200);

  await signInAs(page, teamB.account);
  await page.goto('/workflows');
  await expect(page.getByText(teamB.workflow.name)).toBeVisible();
  await expect(page.getByText(teamA.workflow.name)).toHaveCount(0);

  // The switcher lists both, the current one checked, with the role in each.
  await page.getByRole('button', { name: `Organization: ${nameB}` }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveCount(2);
  await expect(menu.getByRole('menuitem', { name: nameB })).toHaveAttribute('aria-current', 'true');
  await expect(menu.getByRole('menuitem', { name: nameA })).toContainText('Member');
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      await snap(page, `teams-switcher-${scheme}-desktop`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  if (screenshotDir) {
    // Between lg and xl the switcher is an icon next to the main links.
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.waitForTimeout(300);
    await snap(page, 'teams-switcher-light-laptop');
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await menu.getByRole('menuitem', { name: nameA }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: `Organization: ${nameA}` })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
  await expect(page.getByText(teamA.workflow.name)).toBeVisible();
  await expect(page.getByText(teamB.workflow.name)).toHaveCount(0);

  // A reload stays in A.
  await page.reload();
  await expect(page.getByRole('button', { name: `Organization: ${nameA}` })).toBeVisible();
  await expect(page.getByText(teamA.workflow.name)).toBeVisible();

  // On a phone the slide-in menu switches back.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const organizations = page.getByRole('region', { name: 'Organizations' });
  await expect(organizations.getByRole('button', { name: new RegExp(nameB) })).toBeVisible();
  if (screenshotDir) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(400);
      await snap(page, `teams-switcher-${scheme}-phone`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await organizations.getByRole('button', { name: new RegExp(nameB) }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/workflows');
  await expect(page.getByText(teamB.workflow.name)).toBeVisible();
  await expect(page.getByText(teamA.workflow.name)).toHaveCount(0);
});

test('an invitation page for an unknown link, and accepting with another account', async ({
  page,
  request,
}) => {
  const owner = await createAccount(request);
  const other = await createAccount(request);
  const res = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { email: `${uniqueName('someone')}@example.com` },
  });
  const { inviteUrl } = await res.json();

  await page.goto('/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { name: 'This invitation is no longer valid' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();

  // Signed in as someone else: the server's refusal and a way to switch accounts.
  await signInAs(page, other);
  await page.goto(inviteUrl);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByText(/This invitation was sent to another email address/)).toBeVisible();
  await page.getByRole('button', { name: 'Sign out and use another account' }).click();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page).toHaveURL(new URL(inviteUrl).pathname);
});

test('a session whose membership ended moves to another organization of the user on the next load', async ({
  page,
  request,
}) => {
  const owner = await createAccount(request);
  const teammate = await createAccount(request);
  const ownName = uniqueName('Home ');
  await renameOrganization(request, teammate.token, teammate.organizationId, ownName);
  const ownerHeaders = { authorization: `Bearer ${owner.token}` };
  const teammateHeaders = { authorization: `Bearer ${teammate.token}` };

  // The teammate joins the owner's organization and gets a session there (through the API).
  const invitation = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: ownerHeaders,
    data: { email: teammate.email },
  });
  const { token } = await invitation.json();
  expect(
    (await request.post(`/api/invitations/${token}/accept`, { headers: teammateHeaders })).status(),
  ).toBe(200);
  const switched = await request.post('/api/auth/switch-organization', {
    headers: teammateHeaders,
    data: { organizationId: owner.organizationId },
  });
  const session = await switched.json();

  // Removed while away: the stored session now answers 404 'Organization not found'.
  const removed = await request.delete(
    `/api/organizations/${owner.organizationId}/members/${session.user.id}`,
    {
      headers: ownerHeaders,
    },
  );
  expect(removed.status()).toBe(204);

  await signInAs(page, { ...teammate, token: session.token });
  await page.goto('/workflows');
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText(/You no longer have access/),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole('button', { name: `Organization: ${ownName}` })).toBeVisible();
  // The new token is stored: a reload stays there without another switch.
  await page.reload();
  await expect(page.getByRole('button', { name: `Organization: ${ownName}` })).toBeVisible();
});
