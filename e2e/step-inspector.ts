import type { Page } from '@playwright/test';

/**
 * Opens a finished run's details from the Executions tab and its step of `kind`'s inspector: the
 * inspector panel, to read what the step kept.
 */
export async function openStepInspector(page: Page, workflowName: string, runId: string, kind: string) {
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  await page
    .getByRole('article', { name: `${workflowName} execution ${runId.slice(0, 8)}` })
    .getByRole('button', { name: 'View Details' })
    .click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const step = details.locator(`[data-testid="agent-output"][data-kind="${kind}"]`);
  await step.getByRole('button', { name: /Inspect step/ }).click();
  return step.getByTestId('step-inspector-panel');
}
