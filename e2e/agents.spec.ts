import { fakeLlmPort } from './playwright.config';
import { createAccount, expect, expectToast, signInAs, test } from './fixtures';

const fakeLlm = `http://127.0.0.1:${fakeLlmPort}`;

test('configure OpenAI, create, find, edit, test, connect a tool to and delete an agent', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signInAs(page, await createAccount(request));

  // The organization's OpenAI connection points at the fake server.
  await page.goto('/settings/profile?tab=tools');
  const openai = page.getByRole('region', { name: 'OpenAI', exact: true });
  await openai.getByRole('button', { name: 'Edit' }).click();
  await openai.getByLabel('Base URL').fill(`${fakeLlm}/v1`);
  await openai.getByLabel('API Key').fill('sk-e2e-key-0123456789');
  await openai.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Configuration updated');
  await expect(openai.getByText('sk-e2e-key-0123456789')).toHaveCount(0);

  // A tool to connect later.
  await page.goto('/tools');
  await page.getByRole('button', { name: 'Create Tool' }).first().click();
  const toolDialog = page.getByRole('dialog');
  await toolDialog.getByLabel('Tool Name').fill('Orders API');
  await toolDialog.getByLabel('Category').click();
  await page.getByRole('option', { name: 'API Integration' }).click();
  await toolDialog.getByLabel('Base URL').fill('https://orders.example.com/v1');
  await toolDialog.getByLabel('API Key').fill('orders-secret-key-123');
  await toolDialog.getByRole('button', { name: 'Create Tool' }).click();
  await expectToast(page, 'Tool created');
  await expect(page.getByRole('article', { name: 'Orders API' })).toBeVisible();

  // A stored key goes with its address: moving the tool elsewhere asks for the key again.
  await page.getByRole('button', { name: 'Configure Orders API' }).click();
  const editDialog = page.getByRole('dialog');
  await editDialog.getByLabel('Base URL').fill('https://elsewhere.example.com/v1');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog.getByLabel('API Key')).toHaveAccessibleDescription(
    /Enter the key again, or clear it: a stored key is dropped when the tool's address or category changes\./,
  );
  await editDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(editDialog).toHaveCount(0);

  // Create an agent through the dialog.
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Pricing Scout');
  await dialog.getByLabel('Role').fill('Market researcher');
  await dialog.getByLabel('Goal').fill('Find competitor prices');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  await expectToast(page, 'Agent Created');
  const card = page.getByRole('article', { name: 'Pricing Scout' });
  await expect(card).toBeVisible();

  // Find it with the filters.
  await page.getByLabel('Search agents').fill('market res');
  await expect(card).toBeVisible();
  await page.getByLabel('Filter by provider').click();
  await page.getByRole('option', { name: 'Anthropic' }).click();
  await expect(page.getByText('No agents found')).toBeVisible();
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  await expect(card).toBeVisible();

  // Test it: the playground opens, the fake model's reply streams into it and appears in the toast
  // (agent-playground.spec.ts follows the conversation further).
  await request.post(`${fakeLlm}/__control/script`, {
    data: { replies: [{ content: 'Hi! I am Pricing Scout and I track competitor prices.' }] },
  });
  await card.getByRole('button', { name: 'Test' }).click();
  // Over the open panel, which hides the page's notifications region from the accessibility tree.
  await expect(page.locator('[data-slot="toast"]').getByText('Agent Test Successful')).toBeVisible();
  const playground = page.getByRole('dialog', { name: 'Pricing Scout' });
  await expect(playground.getByRole('log')).toContainText(
    'Hi! I am Pricing Scout and I track competitor prices.',
  );
  await playground.getByRole('button', { name: 'Close' }).click();
  await expect(playground).toHaveCount(0);

  // Edit it.
  await card.getByRole('button', { name: 'Agent actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit Agent' }).click();
  await expect(page).toHaveURL(/\/agents\/edit\//);
  await page.getByLabel('Goal').fill('Track competitor prices weekly');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Agent Updated');

  // Connect the tool.
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByRole('button', { name: 'Connect Tool' }).click();
  const connect = page.getByRole('dialog');
  await expect(connect.getByRole('button', { name: 'Connect', exact: true })).toBeDisabled();
  await connect.getByLabel('Tool').click();
  await page.getByRole('option', { name: /Orders API/ }).click();
  // Keys and addresses belong to the tool, not to the agent's link.
  await connect.getByLabel('Configuration (JSON)').fill('{"baseUrl": "https://elsewhere.example.com"}');
  const refusedHint = connect.getByText("An agent's tool settings cannot change where the tool connects");
  await expect(refusedHint).toBeVisible();
  // The message wraps; its icon stays on the first line instead of between the lines.
  const hintBox = (await refusedHint.boundingBox())!;
  const iconBox = (await refusedHint.locator('svg').boundingBox())!;
  expect(hintBox.height).toBeGreaterThan(2 * iconBox.height);
  expect(iconBox.y - hintBox.y).toBeLessThan(4);
  await expect(connect.getByRole('button', { name: 'Connect', exact: true })).toBeDisabled();
  await connect.getByLabel('Configuration (JSON)').fill('{"region": "eu"}');
  await connect.getByRole('button', { name: 'Connect', exact: true }).click();
  await expectToast(page, 'Tool connected');
  await expect(page.getByTestId('agent-tool-link')).toHaveCount(1);

  // Delete it.
  await page.getByRole('link', { name: 'Back to Agents' }).click();
  await page
    .getByRole('article', { name: 'Pricing Scout' })
    .getByRole('button', { name: 'Agent actions' })
    .click();
  await page.getByRole('menuitem', { name: 'Delete Agent' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(
    'Are you sure you want to delete "Pricing Scout"? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Agent Deleted');
  await expect(page.getByRole('article', { name: 'Pricing Scout' })).toHaveCount(0);
});
