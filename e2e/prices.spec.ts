import { createAccount, expect, expectToast, signInAs, snapScreens, test } from './fixtures';

test('an owner sees the built-in price of gpt-4o, sets their own and removes it again', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  await signInAs(page, owner);

  // Settings → Costs, through the tab.
  await page.goto('/settings/profile');
  await page.getByRole('tab', { name: 'Costs' }).click();
  await expect(page).toHaveURL(/\/settings\/profile\?tab=costs$/);
  const card = page.getByTestId('prices-card');
  const table = card.getByRole('table', { name: 'Model prices' });
  const gpt4o = table.getByRole('row', { name: 'OpenAI gpt-4o', exact: true });
  await expect(gpt4o.getByRole('cell')).toHaveText([
    'OpenAI',
    'gpt-4o',
    '$2.50',
    '$1.25',
    '$10.00',
    /2026/,
    'Built-in',
    'Edit',
  ]);
  await snapScreens(page, card, 'prices-built-in');
  // Six tabs: on a phone the row scrolls, the open one in view.
  await snapScreens(page, page.getByRole('tablist'), 'prices-tabs');

  // Their own price, through the row's Edit.
  await gpt4o.getByRole('button', { name: 'Edit the price of gpt-4o' }).click();
  const form = card.getByRole('form', { name: 'Edit price' });
  await expect(form.getByLabel('Model')).toHaveValue('gpt-4o');
  await expect(form.getByLabel('Input', { exact: true })).toBeFocused();
  await form.getByLabel('Input', { exact: true }).fill('2');
  await form.getByLabel('Output').fill('8');
  await form.getByRole('button', { name: 'Save price' }).click();
  await expectToast(page, 'Price saved');
  await expect(gpt4o.getByRole('cell').nth(2)).toHaveText('$2.00');
  await expect(gpt4o.getByRole('cell').nth(4)).toHaveText('$8.00');
  await expect(gpt4o.getByText('Your price')).toBeVisible();
  await snapScreens(page, card, 'prices-own');

  // Still theirs after a reload (the server keeps it).
  await page.reload();
  await expect(gpt4o.getByText('Your price')).toBeVisible();

  // Removed: the built-in price applies again.
  await gpt4o.getByRole('button', { name: 'Remove your price of gpt-4o' }).click();
  await expectToast(page, 'Price removed');
  await expect(gpt4o.getByText('Built-in')).toBeVisible();
  await expect(gpt4o.getByRole('cell').nth(4)).toHaveText('$10.00');
  await expect(gpt4o.getByRole('button', { name: /Remove/ })).toHaveCount(0);
});
