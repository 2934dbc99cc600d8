import { createAccount, expect, signInAs, snapScreens, test } from './fixtures';
import { fakeMcpUrl } from './playwright.config';

// An MCP server connection, against a real MCP server (server-everything, started by the config):
// added from Settings → Tools, its tools listed with their hints and allowed one by one, and one of
// them given to an agent.

test('an MCP server is added from Settings, its tools are allowed one by one, and an agent gets one', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  const headers = { authorization: `Bearer ${owner.token}` };
  const agent = await (
    await request.post('/api/agents', {
      headers,
      data: { name: 'Support', role: 'Support', goal: 'Answer customers', llmModel: 'gpt-4o' },
    })
  ).json();

  await signInAs(page, owner);
  await page.goto('/settings/profile?tab=tools');
  const card = page.getByRole('region', { name: 'MCP servers' });
  await expect(card.getByText(/No MCP server yet/)).toBeVisible();

  // Add MCP server: the tool form, on the MCP Server category.
  await card.getByRole('link', { name: 'Add MCP server' }).click();
  const form = page.getByRole('dialog', { name: 'Create Tool' });
  await expect(form.getByLabel('Category')).toHaveText(/MCP Server/);
  await expect(form.getByLabel('Timeout (seconds)')).toHaveValue('60');
  await form.getByLabel('Tool Name').fill('Everything');
  await form.getByLabel('Server URL').fill(fakeMcpUrl);
  // A bearer token in a header (the reference server takes any).
  await form.getByLabel('Authentication').click();
  await page.getByRole('option', { name: 'Header' }).click();
  await expect(form.getByLabel('Header name')).toHaveValue('Authorization');
  await form.getByLabel('Header value').fill('Bearer e2e-token');
  await snapScreens(page, form, 'mcp-server-form');
  await form.getByRole('button', { name: 'Create Tool' }).click();

  // Created, on the Tools page: its tools as the server lists them, each with its hints' badge, all
  // allowed (the dialog opens by itself).
  await expect(page).toHaveURL(/\/tools$/);
  const dialog = page.getByRole('dialog', { name: 'Server tools' });
  const tools = dialog.getByRole('list', { name: 'Server tools' });
  const echo = tools.getByRole('listitem', { name: 'echo', exact: true });
  await expect(echo).toBeVisible({ timeout: 15_000 });
  await expect(echo.getByText('Read-only')).toBeVisible();
  await expect(echo.getByText('Echoes back the input string')).toBeVisible();
  await expect(
    tools.getByRole('listitem', { name: 'toggle-simulated-logging' }).getByText(/Read-only|Destructive/),
  ).toHaveCount(0);
  await expect(dialog.getByText(/^Listed /)).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'Allowed: get-env' })).toBeChecked();

  // Disallow one: saved on the connection.
  await dialog.getByRole('switch', { name: 'Allowed: get-env' }).click();
  await expect(dialog.getByRole('switch', { name: 'Allowed: get-env' })).not.toBeChecked();
  await expect
    .poll(async () => {
      const list = await (await request.get('/api/tools', { headers })).json();
      return list[0].config.enabledTools?.includes('get-env');
    })
    .toBe(false);
  await snapScreens(page, dialog, 'mcp-server-tools');
  await page.keyboard.press('Escape');
  await snapScreens(page, page.getByRole('article', { name: 'Everything' }), 'mcp-tool-card');

  // Its header, stored, shows masked when the connection is edited.
  await page.getByRole('button', { name: 'Configure Everything' }).click();
  const edit = page.getByRole('dialog', { name: 'Configure Tool' });
  await expect(edit.getByLabel('Authentication')).toHaveText('Header');
  await expect(edit.getByLabel('Header value')).toHaveValue(/^••+oken$/);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Refresh tools reads the list again.
  await page.getByRole('button', { name: 'Server tools of Everything' }).click();
  await dialog.getByRole('button', { name: 'Refresh tools' }).click();
  await expect(dialog.getByText('Listed just now')).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'Allowed: get-env' })).not.toBeChecked();
  await page.keyboard.press('Escape');

  // Settings lists the server: its URL and how many tools, one not allowed.
  await page.goto('/settings/profile?tab=tools');
  const server = card.getByRole('listitem', { name: 'Everything' });
  await expect(server.getByText(fakeMcpUrl)).toBeVisible();
  await expect(server.getByText(/^\d+ tools · \d+ allowed$/)).toBeVisible();
  await snapScreens(page, card, 'mcp-servers-card');

  // An agent gets the connection with no tool yet, then one from its tools panel.
  const tool = (await (await request.get('/api/tools', { headers })).json())[0];
  expect(
    (
      await request.post(`/api/agents/${agent.id}/tools/${tool.id}`, {
        headers,
        data: { config: { tools: [] } },
      })
    ).status(),
  ).toBe(201);
  await page.goto(`/agents/edit/${agent.id}`);
  await page.getByRole('tab', { name: 'Tools' }).click();
  const link = page.getByTestId('agent-tool-link');
  const agentTools = link.getByRole('list', { name: 'Everything tools' });
  await expect(agentTools.getByRole('switch', { name: 'Use echo' })).not.toBeChecked();
  // What the connection does not allow is not offered.
  await expect(agentTools.getByRole('switch', { name: 'Use get-env' })).toHaveCount(0);
  await link.getByLabel('Ask before running').click();
  await expect(page.getByRole('option', { name: /Ask first: tools not marked read-only/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await agentTools.getByRole('switch', { name: 'Use echo' }).click();
  await expect(agentTools.getByRole('switch', { name: 'Use echo' })).toBeChecked();
  await snapScreens(page, link, 'mcp-agent-tools');

  // Kept: a reload shows the one tool on, the others off.
  await page.reload();
  await page.getByRole('tab', { name: 'Tools' }).click();
  const reloaded = page.getByTestId('agent-tool-link').getByRole('list', { name: 'Everything tools' });
  await expect(reloaded.getByRole('switch', { name: 'Use echo' })).toBeChecked();
  await expect(reloaded.getByRole('switch', { name: 'Use get-sum' })).not.toBeChecked();
});
