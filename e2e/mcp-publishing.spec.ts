import type { Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { expect, expectToast, inEachSchemeAndSize, signInAs, snap, snapScreens, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

// The organization's MCP server from the web: publish a workflow from the builder's MCP section, find
// it in Settings → API keys, and copy a client's configuration from the MCP server guide.

let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

/** The builder's Settings tab on `id`, its MCP section once shown. */
async function openMcpSection(page: Page, id: string) {
  await page.goto(`/workflows/edit/${id}`);
  await expect(page.getByRole('heading', { name: 'Edit Workflow' })).toBeVisible();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'MCP' });
  await expect(section).toBeVisible();
  return section;
}

test('an owner publishes an active workflow on the MCP server, sees it in Settings and copies the client configuration', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'draft');
  await signInAs(page, account);
  const endpoint = `${new URL(baseURL!).origin}/mcp`;

  // A draft cannot be published: the section says so and its switch stays off.
  let section = await openMcpSection(page, workflow.id);
  await expect(
    section.getByText('Only an active workflow can be published: activate it first.'),
  ).toBeVisible();
  await expect(section.getByRole('switch', { name: 'Publish on the MCP server' })).toBeDisabled();

  // Activated, it can: the tool name comes from the workflow's name.
  const activated = await request.put(`/api/workflows/${workflow.id}`, {
    headers,
    data: { status: 'active' },
  });
  expect(activated.ok()).toBe(true);
  section = await openMcpSection(page, workflow.id);
  await expect(section.getByText('Only an active workflow can be published')).toHaveCount(0);
  await section.getByRole('switch', { name: 'Publish on the MCP server' }).click();
  const toolName = workflow.name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  await expect(section.getByLabel('Tool name')).toHaveValue(toolName);
  await expect(section.getByLabel('Description')).toHaveValue('Weekly summary of competitor prices');
  await expect(section.getByLabel('Time limit (seconds)')).toHaveValue('60');
  await section.getByRole('button', { name: 'Save publishing' }).click();
  await expectToast(page, 'Published on the MCP server');
  await expect(section.getByRole('button', { name: 'Save publishing' })).toBeDisabled();
  // From its heading down (the section is taller than the panel): the switch and the first fields.
  await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 10_000 });
  const heading = section.getByRole('heading', { name: 'MCP' });
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await heading.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(400);
    await snap(page, `mcp-publishing-builder-${scheme}-${size}`);
  });

  // Reloaded, the builder shows it published.
  section = await openMcpSection(page, workflow.id);
  await expect(section.getByRole('switch', { name: 'Publish on the MCP server' })).toBeChecked();
  await expect(section.getByLabel('Tool name')).toHaveValue(toolName);

  // Settings → API keys: the endpoint, the published tool, and the client configuration.
  await page.goto('/settings/profile?tab=api-keys');
  const card = page.getByRole('region', { name: 'MCP server' });
  await expect(card.getByLabel('MCP endpoint URL', { exact: true })).toHaveText(endpoint);
  const tool = card.getByRole('listitem', { name: toolName });
  await expect(tool.getByRole('link', { name: workflow.name })).toHaveAttribute(
    'href',
    `/workflows/edit/${workflow.id}`,
  );
  await expect(tool.getByText('Active', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Copy client configuration' }).click();
  const fromCard = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(fromCard.mcpServers.crewline.url).toBe(endpoint);
  await snapScreens(page, card, 'mcp-server-card', { waitForToasts: false });

  // The MCP server guide: its configuration is this instance's, with a placeholder key.
  await card.getByRole('link', { name: 'Read the MCP server guide' }).click();
  await expect(page).toHaveURL(/\/docs\/mcp-server$/);
  await expect(page.getByRole('heading', { level: 1, name: 'MCP server' })).toBeVisible();
  await snap(page, 'mcp-server-docs');
  await page.getByRole('button', { name: 'Copy MCP client configuration' }).click();
  const fromDocs = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(fromDocs).toEqual({
    mcpServers: {
      crewline: { type: 'http', url: endpoint, headers: { Authorization: 'Bearer crw_your_api_key' } },
    },
  });
  await page
    .getByRole('navigation', { name: 'Documentation' })
    .getByRole('link', { name: 'MCP tools' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Streamable HTTP only' })).toBeVisible();
});
