// Helpers for the specs that build workflows on the builder's canvas.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Drags from one node's output handle to another node's input handle, as a user connects them. */
export async function connect(page: Page, from: Locator, to: Locator) {
  await connectHandle(page, from.locator('.react-flow__handle.source'), to);
}

/**
 * Drags from a node's named output handle (a condition's branch, a guardrail's pass or fail path) to
 * another node's input handle, and waits for the new edge. A drag that misses (the canvas still
 * settling after Tidy up or Fit View on a busy machine) is made again from fresh positions, as a
 * user would; the edge must appear within three drags.
 */
export async function connectHandle(page: Page, handle: Locator, to: Locator) {
  const edges = page.locator('.react-flow__edge');
  const before = await edges.count();
  for (let attempt = 1; ; attempt++) {
    const source = await handle.boundingBox();
    const target = await to.locator('.react-flow__handle.target').boundingBox();
    if (!source || !target) throw new Error('handle not visible');
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
    await page.mouse.up();
    try {
      await expect(edges).toHaveCount(before + 1, { timeout: attempt < 3 ? 3_000 : undefined });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Whether the middle of the node's title bar is at (x, y). */
async function isAt(node: Locator, x: number, y: number) {
  const box = (await node.boundingBox())!;
  return Math.abs(box.x + box.width / 2 - x) < 20 && Math.abs(box.y + 12 - y) < 20;
}

/**
 * Drags each node by its title bar so that point lands on its (x, y). A dragged node may pass over
 * another and a drop may land short, so every node is checked again after each round, until all of
 * them are where they belong.
 */
export async function layOut(page: Page, placements: [node: Locator, x: number, y: number][]) {
  for (let attempt = 0; attempt < 6; attempt++) {
    const misplaced = [];
    for (const placement of placements) if (!(await isAt(...placement))) misplaced.push(placement);
    if (misplaced.length === 0) return;
    const [node, x, y] = misplaced[0];
    const from = (await node.boundingBox())!;
    const grab = { x: from.x + from.width / 2, y: from.y + 12 };
    // Grab a corner of the title bar every other try: the middle may be under the other node.
    if (attempt % 2 === 1) grab.x = from.x + from.width - 16;
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(x + (grab.x - from.x - from.width / 2), y, { steps: 12 });
    await page.mouse.up();
  }
  throw new Error('could not move the nodes into place');
}

/** One agent per name (role "<name> role", goal "Help"), for the canvas's Add buttons. */
export async function createAgentsNamed(
  request: APIRequestContext,
  headers: Record<string, string>,
  names: string[],
) {
  for (const name of names) {
    const res = await request.post('/api/agents', {
      headers,
      data: { name, role: `${name} role`, goal: 'Help' },
    });
    expect(res.status()).toBe(201);
  }
}
