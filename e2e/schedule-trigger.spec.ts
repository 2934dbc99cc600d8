import type { Page } from '@playwright/test';
import { expect, expectToast, signInAs, snap, test } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

async function openSettings(page: Page, id: string) {
  await page.goto(`/workflows/edit/${id}`);
  await expect(page.getByRole('heading', { name: 'Edit Workflow' })).toBeVisible();
  await expect(page.getByTestId('node-analyst')).toBeVisible();
  await page.getByRole('tab', { name: 'Settings' }).click();
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByLabel(label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByLabel(label)).toHaveText(option);
}

test('a schedule: the cron read in words, its next runs in the chosen zone, errors, and the saved next run', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { account, workflow } = await setUpOneAgentWorkflow(request, `http://127.0.0.1:${fakeLlmPort}/v1`);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSettings(page, workflow.id);

  await chooseOption(page, 'Trigger Type', 'Schedule');
  const cron = page.getByLabel('Cron Expression');
  await expect(cron).toBeVisible();
  await expect(page.getByLabel('Time Zone')).toHaveText('UTC');

  // As the user types: the reading and the next three runs, weekdays at 09:00 in the chosen zone.
  await cron.fill('0 9 * * 1-5');
  await chooseOption(page, 'Time Zone', 'Europe/Paris');
  const preview = page.getByTestId('schedule-preview');
  await expect(preview.getByTestId('schedule-reading')).toHaveText('Every weekday at 09:00');
  const runs = preview.getByRole('list', { name: 'Next runs' }).getByRole('listitem');
  await expect(runs).toHaveCount(3);
  for (const text of await runs.allTextContents()) {
    expect(text).toMatch(/^(Mon|Tue|Wed|Thu|Fri), .* 09:00 GMT\+[12]$/);
  }
  await preview.scrollIntoViewIfNeeded();
  await snap(page, 'schedule-preview-desktop-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, 'schedule-preview-desktop-dark');

  // Another zone moves the same 09:00 to its own clock.
  await chooseOption(page, 'Time Zone', 'America/New York');
  await expect(runs.first()).toContainText(/09:00 (EST|EDT)$/);

  // Invalid expressions: the validation message instead of the preview.
  for (const invalid of ['0 9 * * * *', 'every day', '61 * * * *']) {
    await cron.fill(invalid);
    await expect(page.getByTestId('schedule-error')).toHaveText(
      'Please enter a valid cron expression for scheduled workflows',
    );
    await expect(preview).toBeHidden();
  }
  await page.getByTestId('schedule-error').scrollIntoViewIfNeeded();
  await snap(page, 'schedule-invalid-desktop-dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await cron.fill('*/15 * * * *');
  await expect(preview.getByTestId('schedule-reading')).toHaveText('Every 15 minutes');
  await page.getByTestId('schedule-preview').scrollIntoViewIfNeeded();
  await snap(page, 'schedule-preview-phone-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await snap(page, 'schedule-preview-phone-light');
  await cron.fill('0 9 * *');
  await expect(page.getByTestId('schedule-error')).toBeVisible();
  await snap(page, 'schedule-invalid-phone-light');

  // Activated, the builder shows the next run the server keeps, in the schedule's zone.
  await page.setViewportSize({ width: 1280, height: 900 });
  await cron.fill('0 9 * * 1-5');
  await chooseOption(page, 'Time Zone', 'Europe/Paris');
  await page.getByRole('button', { name: 'Activate' }).click();
  await expectToast(page, 'Workflow Activated');
  await expect(page).toHaveURL(/\/workflows$/);

  const saved = await (
    await request.get(`/api/workflows/${workflow.id}`, {
      headers: { authorization: `Bearer ${account.token}` },
    })
  ).json();
  expect(saved).toMatchObject({
    status: 'active',
    triggerType: 'schedule',
    triggerConfig: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
  });
  expect(saved.nextRunAt).toMatch(/T0[78]:00:00\.000Z$/);

  await openSettings(page, workflow.id);
  await expect(page.getByLabel('Cron Expression')).toHaveValue('0 9 * * 1-5');
  await expect(page.getByLabel('Time Zone')).toHaveText('Europe/Paris');
  const nextRun = page.getByTestId('saved-next-run');
  await expect(nextRun).toContainText(/^Next run: (Mon|Tue|Wed|Thu|Fri), .* 09:00 GMT\+[12]$/);
  await expect(nextRun.locator('time')).toHaveAttribute('datetime', saved.nextRunAt);
  await nextRun.scrollIntoViewIfNeeded();
  await snap(page, 'schedule-saved-desktop-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await nextRun.scrollIntoViewIfNeeded();
  await snap(page, 'schedule-saved-phone-dark');
});
