import { createAccount, expect, expectToast, signInAs, test, uniqueName, signUpAsAda } from './fixtures';

test('a visitor signs up from the landing page, signs out and signs in again', async ({ page }) => {
  const username = uniqueName('ada');
  const email = `${username}@example.com`;

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.locator('header').first().getByRole('link', { name: 'Start Free Trial' }).click();
  await expect(page).toHaveURL(/\/signup$/);

  await signUpAsAda(page, username);

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expectToast(page, 'Welcome to Crewline!');
  await expect(page.getByText('Manage your AI agents and workflows')).toBeVisible();
  await expect(page.getByText('Total Agents')).toBeVisible();
  await expect(page.getByText('No agents created yet')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  // The old session is gone: the dashboard now sends the visitor to the login form.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('analytical1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectToast(page, 'Welcome back!');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('the login and signup forms show the validation messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password').fill('123');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  await expectToast(page, 'Login Failed');

  await page.goto('/signup');
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret124');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
});

test('signing up with a taken email says so', async ({ page, request }) => {
  const account = await createAccount(request);
  await page.goto('/signup');
  await page.getByLabel('Username').fill(uniqueName('other'));
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'An account with this email already exists' }),
  ).toBeVisible();
  await expectToast(page, 'Signup Failed');
  await expect(page).toHaveURL(/\/signup$/);
});

test('a signed-in visitor of /login and /signup lands on the dashboard', async ({ page, request }) => {
  await signInAs(page, await createAccount(request));
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
