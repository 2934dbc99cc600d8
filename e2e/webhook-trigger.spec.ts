import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { expect, expectToast, inEachSchemeAndSize, signInAs, snap, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

// A fake model server of this test's own (scripted replies are one queue per server).
let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

async function openSettings(page: Page, id: string) {
  await page.goto(`/workflows/edit/${id}`);
  await expect(page.getByRole('heading', { name: 'Edit Workflow' })).toBeVisible();
  await page.getByRole('tab', { name: 'Settings' }).click();
}

/** The webhook settings in light and dark, on a desktop and a phone. */
async function snapWebhookSettings(page: Page, name: string) {
  await inEachSchemeAndSize(page, async (scheme, size) => {
    const section = page.getByRole('region', { name: 'Webhook' });
    if (await section.isVisible()) await section.scrollIntoViewIfNeeded();
    await snap(page, `${name}-${size}-${scheme}`);
  });
}

test('a webhook workflow: URL and secret in the builder, a POST starts a run the Executions tab shows live', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Switch the trigger to Webhook: the URL and secret exist only once that is saved.
  await openSettings(page, workflow.id);
  await page.getByLabel('Trigger Type').click();
  await page.getByRole('option', { name: 'Webhook' }).click();
  const section = page.getByRole('region', { name: 'Webhook' });
  await expect(section).toContainText('The webhook URL and secret appear here once the workflow is saved.');
  await expect(page.getByPlaceholder('Optional shared secret')).toHaveCount(0);
  await snapWebhookSettings(page, 'webhook-unsaved');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expectToast(page, 'Workflow Updated');

  // Reveal the URL and the secret, and copy the URL.
  await openSettings(page, workflow.id);
  await expect(section.getByLabel('Webhook URL')).toHaveCount(0);
  await section.getByRole('button', { name: 'Reveal URL and secret' }).click();
  const urlBox = section.getByLabel('Webhook URL', { exact: true });
  await expect(urlBox).toHaveText(new RegExp(`/api/webhooks/${workflow.id}$`));
  const url = (await urlBox.textContent())!;
  const secret = (await section.getByLabel('Webhook secret', { exact: true }).textContent())!;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  await section.getByRole('button', { name: 'Copy webhook URL' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await snapWebhookSettings(page, 'webhook-revealed');

  // Rotate: a new secret is shown at once, and the old one no longer works.
  await section.getByRole('button', { name: 'Rotate secret' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Rotate the webhook secret?' });
  await expect(confirm).toBeVisible();
  // Once its opening animation has ended.
  await confirm.evaluate((element) => Promise.all(element.getAnimations().map((a) => a.finished)));
  await snap(page, 'webhook-rotate-confirm');
  await confirm.getByRole('button', { name: 'Rotate' }).click();
  await expectToast(page, 'Webhook secret rotated');
  await expect(section.getByLabel('Webhook secret', { exact: true })).not.toHaveText(secret);
  const rotated = (await section.getByLabel('Webhook secret', { exact: true }).textContent())!;
  const path = new URL(url).pathname;
  const old = await request.post(path, { headers: { 'x-webhook-secret': secret }, data: { a: 1 } });
  expect(old.status()).toBe(401);

  // Until it is active, a call is refused.
  const inactive = await request.post(path, { headers: { 'x-webhook-secret': rotated }, data: {} });
  expect(inactive.status()).toBe(409);
  expect(await inactive.json()).toEqual({ message: 'Workflow is not active' });

  // Activate (the builder goes back to the Workflows page), then follow the Executions tab.
  await page.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await expect(page).toHaveURL(/\/workflows$/);
  await page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));
  await page.getByRole('tab', { name: 'Executions' }).click();

  fake.script([{ content: 'Webhook digest ready.', delayMs: 1500 }]);
  const res = await request.post(path, {
    headers: { 'x-webhook-secret': rotated },
    data: { event: 'price.changed', sku: 'A-1' },
  });
  expect(res.status()).toBe(202);
  const { executionId, status } = (await res.json()) as { executionId: string; status: string };
  // Queued, or already claimed by the idle worker as it started (docs/decisions/0058).
  expect(['pending', 'running']).toContain(status);

  const run = page.getByRole('article', { name: `${workflow.name} execution ${executionId.slice(0, 8)}` });
  await expect(run).toBeVisible({ timeout: 10_000 });
  // A call with the secret but no signature starts an untrusted run (its write tool calls would wait).
  await expect(run.getByTestId('execution-triggered-by')).toContainText('Webhook');
  await expect(
    run.getByTestId('execution-triggered-by').getByText('Untrusted', { exact: true }),
  ).toBeVisible();
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 20_000,
  });
  await expect(run.getByTestId('execution-output')).toContainText('Webhook digest ready.');
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  await snap(page, 'webhook-run-executions-tab');

  // The run's input is the JSON body.
  const stored = await request.get(`/api/executions/${executionId}`, { headers });
  expect((await stored.json()).input).toEqual({ event: 'price.changed', sku: 'A-1' });
});

test('signed calls: “Require signed calls” in the builder, a signed POST runs once, the secret alone is refused', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });

  await openSettings(page, workflow.id);
  await page.getByLabel('Trigger Type').click();
  await page.getByRole('option', { name: 'Webhook' }).click();
  const section = page.getByRole('region', { name: 'Webhook' });
  const signedSwitch = section.getByRole('switch', { name: 'Require signed calls' });
  await expect(signedSwitch).not.toBeChecked();
  await signedSwitch.click();
  await expect(signedSwitch).toBeChecked();
  await page.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');

  // Saved with the workflow; the help shows the headers to send.
  await openSettings(page, workflow.id);
  await expect(signedSwitch).toBeChecked();
  await expect(section.getByTestId('webhook-signed-help')).toContainText(
    'X-Crewline-Signature: v1=<hex HMAC-SHA256 of "timestamp.body">',
  );
  await expect(section.getByTestId('webhook-signed-help')).toContainText('X-Crewline-Timestamp');
  // Each header on a line of its own, as the caller writes it.
  await expect(section.getByText('X-Crewline-Timestamp: <unix seconds>', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Reveal URL and secret' }).click();
  const secret = (await section.getByLabel('Webhook secret', { exact: true }).textContent())!;
  const path = new URL((await section.getByLabel('Webhook URL', { exact: true }).textContent())!).pathname;
  await snapWebhookSettings(page, 'webhook-signed');

  fake.script([{ content: 'Signed call handled.' }]);
  const body = JSON.stringify({ event: 'invoice.created', id: 7 });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const signedHeaders = {
    'content-type': 'application/json',
    'x-crewline-timestamp': timestamp,
    'x-crewline-signature': `v1=${signature}`,
  };
  const accepted = await request.post(path, { headers: signedHeaders, data: body });
  expect(accepted.status()).toBe(202);

  // The same call again, and the secret without a signature: refused alike.
  const replayed = await request.post(path, { headers: signedHeaders, data: body });
  expect(replayed.status()).toBe(401);
  const unsigned = await request.post(path, { headers: { 'x-webhook-secret': secret }, data: {} });
  expect(unsigned.status()).toBe(401);
  expect(await unsigned.json()).toEqual({ message: 'Missing or invalid webhook secret' });
});
