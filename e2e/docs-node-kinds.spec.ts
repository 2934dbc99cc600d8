import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, screenshotDir, test } from './fixtures';

/** The guide in light and dark, on a desktop (1440×900) and a phone (390×844): `{name}-{scheme}-{size}.png`. */
/** A section's heading (its name also holds the "Link to …" anchor). */
const h2 = (page: Page, title: string) =>
  page.getByRole('heading', { level: 2, name: new RegExp(`^${title}( |$)`) });

async function shoot(page: Page, subject: Locator, name: string) {
  if (!screenshotDir) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      // The subject at the top of the screen (its scroll margin clears the sticky header).
      await subject.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await expect(subject).toBeVisible();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(screenshotDir, `${name}-${scheme}-${size}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the Workflow nodes guide describes each kind with its node JSON, loaded only when opened', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });

  await page.goto('/docs/concepts');
  await expect(page.getByRole('heading', { level: 1, name: 'Concepts' })).toBeVisible();
  // The other pages do not download the guide.
  expect(scripts.filter((s) => s.includes('workflow-nodes'))).toEqual([]);

  await page
    .getByRole('navigation', { name: 'Documentation' })
    .getByRole('link', { name: 'Workflow nodes', exact: true })
    .click();
  await expect(page).toHaveURL(/\/docs\/workflow-nodes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Workflow nodes' })).toBeVisible();
  expect(scripts.some((s) => s.includes('workflow-nodes'))).toBe(true);
  await expect(page).toHaveTitle('Workflow nodes · Docs · Crewline');
  for (const section of ['Agent', 'Condition', 'Tool', 'Transform', 'Map', 'Loop', 'Merge', 'Expressions']) {
    await expect(h2(page, section)).toBeVisible();
  }

  // The condition's node JSON and its edges, with the else path.
  const condition = page.locator('section', {
    has: h2(page, 'Condition'),
  });
  await expect(condition.locator('pre').first()).toContainText('"type": "condition"');
  await expect(condition.locator('pre').nth(1)).toContainText('"sourceHandle": "else"');
  await expect(page.getByText('size(input.items) > 0', { exact: true })).toBeVisible();

  // The previous and next pages.
  await expect(page.getByRole('navigation', { name: 'Previous and next page' })).toContainText('Concepts');
  await expect(page.getByRole('navigation', { name: 'Previous and next page' })).toContainText('Webhooks');

  await shoot(page, page.getByRole('heading', { level: 1, name: 'Workflow nodes' }), 'docs-node-kinds-top');
  await shoot(page, h2(page, 'Condition'), 'docs-node-kinds-condition');
  await shoot(page, h2(page, 'Expressions'), 'docs-node-kinds-expressions');
  await shoot(page, h2(page, 'A deciding run’s answer'), 'docs-node-kinds-run');

  // Opened directly, the guide renders too (the lazy part inside the lazy docs route).
  await page.goto('/docs/workflow-nodes#expressions');
  await expect(h2(page, 'Expressions')).toBeVisible();
  expect(errors).toEqual([]);
});
