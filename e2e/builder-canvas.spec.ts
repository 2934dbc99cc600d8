import { createAccount, expect, snapScreens, signInAs, test } from './fixtures';
import { connect, createAgentsNamed } from './canvas';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('place, tidy up, undo, redo, copy, paste and save in place on the canvas', async ({ page, request }) => {
  test.setTimeout(120_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const names = ['Researcher', 'Analyst', 'Writer'];
  await createAgentsNamed(request, headers, names);
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/workflows/new');
  await page.getByLabel('Workflow name').fill('Canvas flow');

  // Three agents land on free spots: no two node boxes overlap.
  for (const name of names) await page.getByRole('button', { name: `Add ${name}` }).click();
  const canvas = page.locator('.react-flow');
  const nodes = canvas.locator('.react-flow__node');
  // The canvas draws only what is in view: frame them all first, with the help box out of the way.
  await page.getByRole('button', { name: 'Hide canvas help' }).click();
  await page.getByRole('button', { name: 'Fit View' }).click();
  await expect(nodes).toHaveCount(5);
  const boxes = await Promise.all((await nodes.all()).map(async (n) => (await n.boundingBox())!));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) expect(overlap(boxes[i]!, boxes[j]!)).toBe(false);
  }

  // Connect Start → Writer → Analyst → Researcher → End, then Tidy up lays them out left to right.
  const node = (label: string) => nodes.filter({ hasText: label });
  const chain = [
    page.getByTestId('node-start'),
    node('Writer'),
    node('Analyst'),
    node('Researcher'),
    page.getByTestId('node-end'),
  ];
  // Without edges, Tidy up stacks the nodes in one column, clear of the panels, ready to connect.
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await expect(async () => {
    const xs = await Promise.all(
      chain.map(async (n) => (await n.boundingBox())!.x + (await n.boundingBox())!.width / 2),
    );
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(2);
  }).toPass({ timeout: 10_000 });
  for (let i = 0; i < chain.length - 1; i++) {
    await connect(page, chain[i]!, chain[i + 1]!);
    await expect(canvas.locator('.react-flow__edge')).toHaveCount(i + 1);
  }
  await page.getByRole('button', { name: 'Tidy up' }).click();
  await expect(async () => {
    const xs = await Promise.all(chain.map(async (n) => (await n.boundingBox())!.x));
    for (let i = 1; i < xs.length; i++) expect(xs[i]!).toBeGreaterThan(xs[i - 1]!);
  }).toPass({ timeout: 10_000 });
  await snapScreens(page, canvas, 'builder-canvas');

  // Delete a node, undo brings it back with its edges, redo removes it again.
  await node('Analyst').click();
  await page.keyboard.press('Delete');
  await expect(nodes).toHaveCount(4);
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(2);
  await page.keyboard.press('ControlOrMeta+z');
  await expect(nodes).toHaveCount(5);
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(4);
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(nodes).toHaveCount(4);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(node('Analyst')).toHaveCount(1);

  // Copy and paste a node: one more, selected; Delete removes the copy.
  await node('Writer').click();
  await page.keyboard.press('ControlOrMeta+c');
  await page.keyboard.press('ControlOrMeta+v');
  await expect(nodes).toHaveCount(6);
  await expect(node('Writer')).toHaveCount(2);
  await page.keyboard.press('Delete');
  await expect(nodes).toHaveCount(5);

  // The shortcut sheet.
  await page.locator('.react-flow__pane').click({ position: { x: 20, y: 300 } });
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('Duplicate the selected nodes')).toBeVisible();
  await snapScreens(page, sheet, 'builder-shortcuts');
  await page.keyboard.press('Escape');

  // Ctrl+S saves in place, even from the name field, and the URL becomes the edit URL.
  await page.getByLabel('Workflow name').fill('Canvas flow saved');
  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByRole('status').getByText('Saved')).toBeVisible();
  await expect(page).toHaveURL(/\/workflows\/edit\//);
  await expect(page.getByLabel('Workflow name')).toHaveValue('Canvas flow saved');
  // Undo still works after the save: the editing session carried over.
  await expect(page.getByRole('button', { name: 'Undo' })).toBeEnabled();

  await page.reload();
  await expect(page.getByLabel('Workflow name')).toHaveValue('Canvas flow saved');
  await expect(nodes).toHaveCount(5);
  await expect(canvas.locator('.react-flow__edge')).toHaveCount(4);
  const reloaded = await Promise.all(chain.map(async (n) => (await n.boundingBox())!.x));
  for (let i = 1; i < reloaded.length; i++) expect(reloaded[i]!).toBeGreaterThan(reloaded[i - 1]!);

  // An unsaved change warns before leaving in the app.
  await page.getByLabel('Workflow name').fill('Canvas flow changed');
  await page.getByRole('button', { name: 'Close' }).click();
  const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await snapScreens(page, leave, 'builder-leave');
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/workflows\/edit\//);
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
});

test('on a phone the help box starts folded and the minimap is hidden', async ({ page, request }) => {
  const account = await createAccount(request);
  await signInAs(page, account);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/workflows/new');
  const canvas = page.locator('.react-flow');
  await canvas.scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: 'Show canvas help' })).toBeVisible();
  await expect(page.getByText('How to build')).toHaveCount(0);
  await expect(canvas.locator('.react-flow__minimap')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Tidy up' })).toBeVisible();
  await page.screenshot({ path: '/tmp/canvas-phone-fresh.png', fullPage: true });
});
