import { createAccount, expect, expectToast, test, uniqueName, snapScreens, signUpAsAda } from './fixtures';

test('a new user edits their profile, changes the password and signs in with the new one', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const other = await createAccount(request);
  const username = uniqueName('ada');
  const email = `${username}@example.com`;

  // Sign up.
  await page.goto('/signup');
  await signUpAsAda(page, username);
  await expect(page).toHaveURL(/\/dashboard$/);
  const avatar = page.getByRole('link', { name: 'Profile' });
  await expect(avatar).toHaveText('AL');

  // Edit the profile: another user's username is refused on its field, then the edit is saved.
  await avatar.click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Profile' });
  await expect(edit.getByLabel('Username')).toHaveValue(username);
  await expect(edit.getByLabel('Email')).toHaveValue(email);
  await edit.getByLabel('First Name').fill('Grace');
  await edit.getByLabel('Last Name').fill('Hopper');
  await edit.getByLabel('Username').fill(other.username.toUpperCase());
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('This username is already taken')).toBeVisible();
  await edit.getByLabel('Username').fill('x');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('Username must be at least 3 characters')).toBeVisible();
  const newUsername = `${username}.gh`;
  await edit.getByLabel('Username').fill(newUsername);
  await snapScreens(page, edit, 'profile-edit');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Profile updated');
  await expect(edit).toBeHidden();

  // The navigation's avatar and the Profile tab show the new name at once.
  await expect(avatar).toHaveText('GH');
  await avatar.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Grace Hopper');
  await expect(page.getByText(`@${newUsername}`)).toBeVisible();
  await expect(page.getByText('Grace Hopper', { exact: true }).first()).toBeVisible();
  // And it is stored: a reload reads it from the server.
  await page.reload();
  await expect(avatar).toHaveText('GH');
  await expect(page.getByText(`@${newUsername}`)).toBeVisible();
  await snapScreens(page, page.getByText(`@${newUsername}`), 'profile-tab');

  // Change the password: a wrong current password is refused on its field first.
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('Current Password').fill('not-my-password');
  await dialog.getByLabel('New Password', { exact: true }).fill('difference-engine');
  await dialog.getByLabel('Confirm New Password').fill('difference-engine');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByText('Current password is incorrect')).toBeVisible();
  await snapScreens(page, dialog, 'profile-password-error');
  await dialog.getByLabel('Current Password').fill('analytical1');
  await dialog.getByLabel('Confirm New Password').fill('difference-engin');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByText("Passwords don't match")).toBeVisible();
  await dialog.getByLabel('Confirm New Password').fill('difference-engine');
  await snapScreens(page, dialog, 'profile-password');
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expectToast(page, 'Password changed');
  await expect(dialog).toBeHidden();
  // This session stays signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Profile & Settings' })).toBeVisible();

  // Sign out; the old password no longer works, the new one does.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('analytical1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  await page.getByLabel('Password').fill('difference-engine');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(avatar).toHaveText('GH');
});
