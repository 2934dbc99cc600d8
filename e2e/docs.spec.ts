import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { createAccount, expect, signInAs, snap, snapScreens, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

const run = promisify(execFile);

/** Every page of the documentation with its heading and some of its section headings. */
const PAGES = [
  { nav: 'Getting started', path: '/docs', sections: ['Sign up', 'Create an agent', 'Review the run'] },
  { nav: 'Concepts', path: '/docs/concepts', sections: ['Agents', 'Process types', 'Plans and limits'] },
  { nav: 'Webhooks', path: '/docs/webhooks', sections: ['Get the URL and the secret', 'Rotate the secret'] },
  { nav: 'API keys', path: '/docs/api-keys', sections: ['Create a key', 'What a key cannot do'] },
] as const;

/**
 * Records console errors, page errors and every request that leaves the page's origin (data: and
 * blob: URLs never leave the browser).
 */
function watch(page: Page, origin: string) {
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) foreign.push(url);
  });
  return { errors, foreign };
}

const originOf = (baseURL: string | undefined) => new URL(baseURL!).origin;

test('signed out, every documentation page renders and the navigation moves between them', async ({
  page,
  baseURL,
}) => {
  const origin = originOf(baseURL);
  const seen = watch(page, origin);
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await expect(page).toHaveTitle('Getting started · Docs · Crewline');
  // Signed out: the header offers signing in, not the app.
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Documentation' });
  for (const { nav: label, path: pathname, sections } of PAGES) {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${pathname}$`));
    await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    for (const section of sections) {
      await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
    }
    // The page's own table of contents points at its sections.
    await expect(
      page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: sections[0] }),
    ).toHaveAttribute('href', /^#/);
  }

  // Section links: the page's own list, and a link to a section of another page.
  await nav.getByRole('link', { name: 'Concepts', exact: true }).click();
  await page
    .getByRole('navigation', { name: 'On this page' })
    .getByRole('link', { name: 'Triggers' })
    .click();
  await expect(page).toHaveURL(/\/docs\/concepts#triggers$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Triggers' })).toBeInViewport();
  await nav.getByRole('link', { name: 'Getting started', exact: true }).click();
  // Wait for the page itself: until it renders, Concepts' own 'Plans and limits' links are still there.
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await page.getByRole('link', { name: 'Plans and limits', exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/concepts#plans-and-limits$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Plans and limits' })).toBeInViewport();

  // Previous / next, and a reload of a deep link (the server answers the app for it).
  await nav.getByRole('link', { name: 'API keys', exact: true }).click();
  await page.getByRole('navigation', { name: 'Previous and next page' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  // The API reference is the server's page: a plain link, not a route of the app.
  await expect(nav.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');

  // An unknown page says so inside the documentation, without sending the visitor to the sign-in form.
  await page.goto('/docs/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Getting started' }).click();
  await expect(page).toHaveURL(/\/docs$/);

  expect(seen.errors).toEqual([]);
  expect(seen.foreign).toEqual([]);
});

test("the landing page's Docs link leads to the documentation", async ({ page, baseURL }) => {
  const seen = watch(page, originOf(baseURL));
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Docs' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  expect(seen.errors).toEqual([]);
  expect(seen.foreign).toEqual([]);
});

test('on a phone the navigation folds into a menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/docs/concepts');
  const menu = page.getByRole('button', { name: /Menu/ });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  const nav = page.getByRole('navigation', { name: 'Documentation' });
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/docs\/api-keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(nav).toBeHidden();
  await expect(page.getByRole('button', { name: /Menu/ })).toContainText('API keys');
});

test('a copy button copies a curl example that calls this instance', async ({ page, context, baseURL }) => {
  const origin = originOf(baseURL);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/webhooks');
  await page.getByRole('button', { name: 'Copy webhook curl example' }).click();
  const webhookCurl = await page.evaluate(() => navigator.clipboard.readText());
  expect(webhookCurl).toContain(`curl -i -X POST "${origin}/api/webhooks/$WORKFLOW_ID"`);
  expect(webhookCurl).toContain('-H "X-Webhook-Secret: $WEBHOOK_SECRET"');

  await page.goto('/docs/api-keys');
  await page.getByRole('button', { name: 'Copy execute curl example' }).click();
  const executeCurl = await page.evaluate(() => navigator.clipboard.readText());
  expect(executeCurl).toContain(`"${origin}/api/workflows/$WORKFLOW_ID/execute"`);
  expect(executeCurl).toContain('-H "Authorization: Bearer $CREWLINE_API_KEY"');
});

test('the headers of a signed call are never broken across lines', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/docs/webhooks');
  for (const header of ['X-Crewline-Timestamp', 'X-Crewline-Signature: v1=<signature>']) {
    const code = page.getByText(header, { exact: true });
    await expect(code).toBeVisible();
    // One box per line the inline code spans: "X-" alone at a line's end reads as another name.
    expect(await code.evaluate((element) => element.getClientRects().length)).toBe(1);
  }
});

test.describe('the copied examples work against this instance', () => {
  let fake: FakeLlmServer;
  test.beforeEach(async () => {
    fake = await startFakeLlmServer();
  });
  test.afterEach(async () => {
    await fake?.close();
  });

  test('the webhook curl, the execute curl and the Node script each start a run', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
    const copy = async (pathname: string, button: string) => {
      if (!page.url().endsWith(pathname)) await page.goto(pathname);
      await page.getByRole('button', { name: `Copy ${button}` }).click();
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const env = (vars: Record<string, string>) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', ...vars });

    // Webhook: make the workflow a webhook one and reveal its secret, as the builder does.
    const updated = await request.put(`/api/workflows/${workflow.id}`, {
      headers,
      data: { triggerType: 'webhook', triggerConfig: {} },
    });
    expect(updated.ok()).toBe(true);
    const { secret } = await (
      await request.get(`/api/workflows/${workflow.id}/webhook-secret`, { headers })
    ).json();
    const webhook = await run('sh', ['-c', await copy('/docs/webhooks', 'webhook curl example')], {
      env: env({ WORKFLOW_ID: workflow.id, WEBHOOK_SECRET: secret }),
    });
    expect(webhook.stdout).toMatch(/^HTTP\/1\.1 202/);
    // Queued, or already claimed by the idle worker as it started (docs/decisions/0058).
    expect(webhook.stdout).toMatch(/"executionId":"[0-9a-f-]{36}","status":"(pending|running)"/);

    // API key: created by the owner (signed in), then used by the copied commands.
    const created = await request.post(`/api/organizations/${account.organizationId}/api-keys`, {
      headers,
      data: { name: 'Docs examples' },
    });
    expect(created.status()).toBe(201);
    const { key } = await created.json();
    const keyEnv = env({ CREWLINE_API_KEY: key, WORKFLOW_ID: workflow.id });

    const listed = await run('sh', ['-c', await copy('/docs/api-keys', 'list workflows curl example')], {
      env: keyEnv,
    });
    expect(JSON.parse(listed.stdout).map((w: { id: string }) => w.id)).toContain(workflow.id);

    const executed = await run('sh', ['-c', await copy('/docs/api-keys', 'execute curl example')], {
      env: keyEnv,
    });
    const started = JSON.parse(executed.stdout);
    expect(['pending', 'running']).toContain(started.status);
    expect(started).toMatchObject({
      workflowId: workflow.id,
      input: { topic: 'Competitor pricing in Q3' },
      parameters: { region: 'EU' },
      dynamicInstructions: 'Keep the summary under 200 words',
      trigger: 'manual',
    });
    const polled = await run('sh', ['-c', await copy('/docs/api-keys', 'get execution curl example')], {
      env: { ...keyEnv, EXECUTION_ID: started.id },
    });
    expect(JSON.parse(polled.stdout).id).toBe(started.id);

    // The Node script: starts a run and polls it to the end.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'crewline-docs-'));
    try {
      const script = path.join(dir, 'run-workflow.mjs');
      writeFileSync(script, await copy('/docs/api-keys', 'Node.js example'));
      fake.script([{ content: 'Prices rose 4 % in the EU.' }]);
      const node = await run(process.execPath, [script], { env: keyEnv, timeout: 60_000 });
      expect(node.stdout).toMatch(/^started [0-9a-f-]{36}$/m);
      expect(node.stdout).toContain('completed Prices rose 4 % in the EU.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the signed-in app links to the documentation, which offers the way back', async ({ page, request }) => {
  await signInAs(page, await createAccount(request));
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Documentation' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible();
  await page.getByRole('link', { name: 'Open app' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the API reference, when the server serves it, stays on this origin without errors', async ({
  page,
  request,
  baseURL,
}) => {
  const html = await (await request.get('/docs/api')).text();
  // Without it, the server answers the app's index.html (the app then shows its not-found page).
  test.skip(html.includes('<div id="root">'), 'GET /docs/api is not served by the server yet');
  const seen = watch(page, originOf(baseURL));
  await page.goto('/docs/api');
  await page.waitForLoadState('networkidle');
  expect(seen.errors).toEqual([]);
  expect(seen.foreign).toEqual([]);
});

test('screens of the documentation', async ({ page }) => {
  await page.goto('/docs');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Getting started');
  await snapScreens(page, heading, 'docs-getting-started');
  await snap(page, 'docs-getting-started-full', { fullPage: true });
  for (const pathname of ['/docs/concepts', '/docs/webhooks', '/docs/api-keys']) {
    await page.goto(pathname);
    await expect(heading).toBeVisible();
    await snap(page, `docs-${pathname.split('/').pop()}-full`, { fullPage: true });
  }
  await page.goto('/docs/api-keys');
  await expect(heading).toHaveText('API keys');
  await snapScreens(page, heading, 'docs-api-keys');
  // The phone menu, open.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: /Menu/ }).click();
  await snap(page, 'docs-api-keys-phone-menu');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, 'docs-api-keys-phone-menu-dark');
});
