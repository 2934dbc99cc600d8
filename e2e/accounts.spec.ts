import { accountMessages } from '@crewline/contracts';

import { createAccount, expect, expectToast, signInAs, snapScreens, test, uniqueName } from './fixtures';
import { mailedLink, mailsTo } from './mail-inbox';

// Screenshots of each screen (E2E_SCREENSHOTS) take longer than the default 30 s.
test.describe.configure({ timeout: 90_000 });

test('a new account verifies its email from the mailed link, and the banner goes', async ({
  page,
  request,
}) => {
  const username = uniqueName('vera');
  const email = `${username}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-password');
  await page.getByLabel('Confirm Password').fill('first-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const banner = page.getByRole('status').filter({ hasText: 'is not verified yet' });
  await expect(banner).toContainText(email);
  await snapScreens(page, banner, 'full1-verify-banner');
  const link = await mailedLink(request, email, '/verify-email');
  const [mail] = await mailsTo(request, email);
  expect(mail.from).toBe('"Crewline" <no-reply@crewline.test>');
  expect(mail.subject).toBe('Verify your email address for Crewline');

  // Resend: a second, different link arrives.
  await banner.getByRole('button', { name: 'Resend' }).click();
  await expectToast(page, accountMessages.verificationSent);
  const second = await mailedLink(request, email, '/verify-email', [link]);

  await page.goto(second);
  await expect(page.getByText(accountMessages.emailVerified)).toBeVisible();
  await snapScreens(page, page.getByText(accountMessages.emailVerified), 'full1-verify-done');
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('is not verified yet')).toHaveCount(0);

  // The link worked once.
  await page.goto(second);
  await expect(page.getByText(accountMessages.linkGone)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send a new link' })).toBeVisible();
  await snapScreens(page, page.getByText(accountMessages.linkGone), 'full1-verify-gone');
});

test('a forgotten password is reset from the mailed link; the old one stops working', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(accountMessages.resetLinkSent)).toBeVisible();
  await snapScreens(page, page.getByText(accountMessages.resetLinkSent), 'full1-forgot-sent');

  // An address without an account gets the very same answer.
  const unknown = await request.post('/api/auth/forgot-password', {
    data: { email: 'nobody-e2e@example.com' },
  });
  expect(unknown.status()).toBe(202);
  expect((await unknown.json()).message).toBe(accountMessages.resetLinkSent);

  const link = await mailedLink(request, account.email, '/reset-password');
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('second-passwor');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Confirm new password').fill('second-password');
  await snapScreens(page, page.getByRole('button', { name: 'Set new password' }), 'full1-reset-form');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectToast(page, accountMessages.passwordReset);

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid email or password').first()).toBeVisible();
  await page.getByLabel('Password').fill('second-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The link was used: the page says so when the form is sent.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('third-password');
  await page.getByLabel('Confirm new password').fill('third-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText(accountMessages.linkGone)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Send a new link' })).toBeVisible();
});

test('the invitation page asks an unverified invitee to verify first', async ({ page, request }) => {
  const owner = await createAccount(request);
  const username = uniqueName('ivy');
  const email = `${username}@example.com`;
  const signup = await request.post('/api/auth/signup', {
    data: { username, email, password: 'ivy-password', confirmPassword: 'ivy-password', role: 'user' },
  });
  expect(signup.status()).toBe(201);
  const invitee = (await signup.json()) as { token: string; organization: { id: string } };
  const invited = await request.post(`/api/organizations/${owner.organizationId}/invitations`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { email, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const { token, emailSent } = (await invited.json()) as { token: string; emailSent: boolean };
  // With SMTP_URL set, the invitation itself is mailed.
  expect(emailSent).toBe(true);

  await signInAs(page, {
    ...invitee,
    email,
    password: 'ivy-password',
    username,
    organizationId: invitee.organization.id,
  });
  await page.goto(`/invite/${token}`);
  const notice = page.getByText(accountMessages.verifyToAcceptInvitation);
  await expect(notice).toBeVisible();
  await snapScreens(page, notice, 'full1-invite-verify');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(notice).toBeVisible();

  const link = await mailedLink(request, email, '/verify-email');
  await page.goto(link);
  await expect(page.getByText(accountMessages.emailVerified)).toBeVisible();
  await page.goto(`/invite/${token}`);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
