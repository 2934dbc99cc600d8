import type { Locator, Page } from '@playwright/test';

import { expect, inEachSchemeAndSize, screenshotDir, snap, snapScreens, test } from './fixtures';

/** Every request the page makes, and every console error and uncaught exception it has. */
function watch(page: Page) {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { requests, errors };
}

/** Like snapScreens, but with `subject` scrolled to the top of each viewport (the reference is one long page). */
async function snapScrolledTo(page: Page, subject: Locator, name: string) {
  if (!screenshotDir) return;
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await subject.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(400);
    await snap(page, `${name}-${scheme}-${size}`);
  });
}

test('the API reference renders signed out, with every request to this server', async ({ page, baseURL }) => {
  // It lays out a 400 kB document in the browser, then visits and photographs several operations: on a
  // machine running the server suite beside the browser tests, that takes longer than one test's 30 s.
  test.setTimeout(90_000);
  const origin = new URL(baseURL!).origin;
  const { requests, errors } = watch(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/docs/api');
  await expect(page).toHaveURL(/\/docs\/api\/(#.*)?$/);
  await expect(page).toHaveTitle('Crewline API reference');
  const title = page.getByRole('heading', { name: 'Crewline API', level: 1 });
  // The reference lays out the whole OpenAPI document in the browser before its first heading shows:
  // on a machine busy with the server suite beside the browser tests, that takes longer than a page.
  await expect(title).toBeVisible({ timeout: 20_000 });

  // The module tags and their operations, from /api/openapi.json.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar for Crewline API' });
  for (const tag of ['Authentication', 'Agents', 'Workflows', 'Executions', 'Webhooks', 'API keys']) {
    await expect(sidebar.getByRole('link', { name: tag, exact: true })).toBeVisible();
  }
  await expect(sidebar.getByRole('link', { name: 'Sign in HTTP Method: POST' })).toBeVisible();
  // Nothing sends the document to Scalar's hosted client.
  await expect(page.getByRole('link', { name: 'Open API Client' })).toHaveCount(0);
  await sidebar.getByRole('link', { name: 'Agents', exact: true }).click();
  const createAgent = page.getByRole('heading', { name: 'Create an agent' });
  await expect(createAgent).toBeVisible();
  await createAgent.scrollIntoViewIfNeeded();
  const operation = page.locator('section', { has: createAgent }).first();
  await expect(operation.getByText('/api/agents', { exact: true }).first()).toBeVisible();
  await expect(operation.getByText('A session token or an organization API key.')).toBeVisible();
  // The body's required fields, from the route's zod schema.
  for (const field of ['name', 'role', 'goal']) {
    await expect(operation.getByText(field, { exact: true }).first()).toBeVisible();
  }
  await expect(operation.getByRole('button', { name: /Test Request/ })).toBeVisible();
  await snapScrolledTo(page, createAgent, 'api-docs-operation');

  // The reference's own client sends a request to this server (the health check needs no token).
  await sidebar.getByRole('link', { name: 'System', exact: true }).click();
  const health = page
    .locator('section', { has: page.getByRole('heading', { name: 'Health check' }) })
    .first();
  await health.getByRole('button', { name: /Test Request/ }).click();
  const client = page.getByRole('dialog');
  await expect(client).toBeVisible();
  await client.getByRole('button', { name: /^Send/ }).first().click();
  await expect(client.getByText('"status": "ok"').first()).toBeVisible();
  await snapScreens(page, client, 'api-docs-test-request', { waitForToasts: false });
  await page.keyboard.press('Escape');
  await expect(client).toBeHidden();

  await page.evaluate(() => window.scrollTo(0, 0));
  await snapScreens(page, title, 'api-docs-top', { waitForToasts: false });

  expect(errors).toEqual([]);
  const elsewhere = requests.filter(
    (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
  );
  expect(elsewhere).toEqual([]);
  expect(requests).toEqual(expect.arrayContaining([`${origin}/api/openapi.json`, `${origin}/api/health`]));
  expect(requests.some((url) => url.startsWith(`${origin}/docs/api/js/scalar.js`))).toBe(true);
});

test('/docs stays the web app', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.locator('#root')).toBeAttached();
  await expect(page.locator('.scalar-app')).toHaveCount(0);
});
