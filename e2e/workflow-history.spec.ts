import type { Page } from '@playwright/test';
import { expect, expectToast, signInAs, snap, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

const NEW_DESCRIPTION = 'Three bullet points, cheapest first';

async function openBuilder(page: Page, id: string) {
  await page.goto(`/workflows/edit/${id}`);
  await expect(page.getByRole('heading', { name: 'Edit Workflow' })).toBeVisible();
  await expect(page.getByTestId('node-analyst')).toBeVisible();
}

function historyPanel(page: Page) {
  return page.getByRole('dialog', { name: 'Version History' });
}

test('activate, edit, activate again, open History, see the diff, restore v1', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
  );
  await signInAs(page, account);
  await page.setViewportSize({ width: 1440, height: 900 });

  // A draft never activated has no versions yet.
  await openBuilder(page, workflow.id);
  await page.getByRole('button', { name: 'History' }).click();
  await expect(historyPanel(page).getByText('No versions yet')).toBeVisible();
  await expect(historyPanel(page)).toContainText(/activating records version 1/i);
  await snap(page, 'history-empty-desktop-light');
  await page.keyboard.press('Escape');
  await expect(historyPanel(page)).toBeHidden();

  // Activate with a note: version 1.
  await page.getByLabel('Version note').fill('First cut');
  await page.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await expect(page).toHaveURL(/\/workflows$/);

  // Edit the agent step and save the active workflow with a note: version 2.
  await openBuilder(page, workflow.id);
  await page.getByTestId('node-analyst').click();
  await page.getByLabel('Description').fill(NEW_DESCRIPTION);
  await page.getByLabel('Version note').fill('Shorter summaries');
  await snap(page, 'builder-version-note-desktop-light');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expectToast(page, 'Workflow Updated');
  await expect(page).toHaveURL(/\/workflows$/);

  // History lists both versions, newest first, with their notes.
  await openBuilder(page, workflow.id);
  await expect(page.getByLabel('Version note')).toHaveValue('');
  await page.getByRole('button', { name: 'History' }).click();
  const panel = historyPanel(page);
  const versions = panel.getByRole('list', { name: 'Versions' }).getByRole('button');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toHaveAccessibleName('Version 2, current: Shorter summaries');
  await expect(versions.nth(1)).toHaveAccessibleName('Version 1: First cut');
  await expect(versions.nth(0)).toContainText('Eve Tester');

  // Version 1 against the current draft: its graph, and the agent's Description changed.
  await versions.nth(1).click();
  await expect(panel.getByTestId('workflow-graph-view')).toBeVisible();
  await expect(panel.getByTestId('workflow-graph-view').locator('.react-flow__node')).toHaveCount(3);
  const changes = panel.getByRole('region', { name: 'Changes' });
  await expect(changes.getByTestId('diff-summary')).toHaveText('1 node changed');
  const description = changes.getByTestId('diff-field-description');
  await expect(description).toContainText('Description');
  await expect(description).toContainText('Empty');
  await expect(description).toContainText(NEW_DESCRIPTION);
  await snap(page, 'history-diff-desktop-light');

  // The newest version is the draft itself: nothing to restore.
  await versions.nth(0).click();
  await expect(changes.getByTestId('diff-summary')).toHaveText('Same as the current draft');
  await expect(panel.getByRole('button', { name: 'Restore' })).toBeDisabled();

  // Dark theme, then a phone: the list and one version take turns.
  await versions.nth(1).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(description).toBeVisible();
  await snap(page, 'history-diff-desktop-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.getByRole('button', { name: 'All versions' }).click();
  await expect(versions).toHaveCount(2);
  await snap(page, 'history-list-phone-dark');
  await versions.nth(1).click();
  await expect(description).toBeVisible();
  await snap(page, 'history-diff-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await snap(page, 'history-diff-phone-light');
  await panel.getByRole('button', { name: 'All versions' }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
  await versions.nth(1).click();

  // Restore version 1: the confirmation says what happens to an active workflow.
  await panel.getByRole('button', { name: 'Restore' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restore version 1?' });
  await expect(confirm).toContainText('new runs use it right away');
  await expect(confirm).toContainText('"Restored from version 1"');
  await snap(page, 'history-restore-confirm-desktop-light');
  await confirm.getByRole('button', { name: 'Restore version 1' }).click();
  await expectToast(page, 'Version 1 Restored');
  await expect(panel).toBeHidden();

  // The builder shows version 1's content, saved, and recorded as version 3.
  await page.getByTestId('node-analyst').click();
  await expect(page.getByLabel('Description')).toHaveValue('');
  const saved = await (await request.get(`/api/workflows/${workflow.id}`, { headers })).json();
  expect(saved.nodes.find((n: { id: string }) => n.id === 'analyst').data.description ?? '').toBe('');
  await page.getByRole('button', { name: 'History' }).click();
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toHaveAccessibleName('Version 3, current: Restored from version 1');
  await versions.nth(2).click();
  await expect(changes.getByTestId('diff-summary')).toHaveText('Same as the current draft');
  await snap(page, 'history-after-restore-desktop-light');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByLabel('Version note')).toBeVisible();
  await snap(page, 'builder-header-phone-light', { fullPage: true });
});
