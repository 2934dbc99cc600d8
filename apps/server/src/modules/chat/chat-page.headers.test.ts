import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import type { ChatApp } from './chat-apps.presenter';
import { createFrameAncestors } from './chat-page.headers';

/*
 * Who may frame a chat app's page (docs/security.md, Chat apps): its allowed origins, read through the
 * publishing API as an admin sets them; every other page is framed by nobody. And the widget's script,
 * which any site loads.
 */

const distDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-dist-'));
writeFileSync(
  path.join(distDir, 'index.html'),
  '<!doctype html><title>Crewline</title><div id="root"></div>',
);
writeFileSync(path.join(distDir, 'widget.js'), '(function(){})();');

let t: TestApp;
let token = '';

async function publishChat(slug: string, chat: { enabled: boolean; allowedOrigins?: string[] }) {
  const agent = await createAgent(t, token, { name: `Helper ${slug}` });
  const workflowId = await createChainWorkflow(t, token, `Help ${slug}`, [agent.id]);
  const res = await t.request({
    method: 'PUT',
    url: `/api/workflows/${workflowId}/publishing`,
    token,
    payload: { chat: { slug, name: 'Help desk', access: 'link', ...chat } },
  });
  expect(res.statusCode).toBe(200);
}

const page = (url: string) => t.request({ method: 'GET', url });
const frameAncestorsOf = (res: { headers: Record<string, unknown> }) =>
  /frame-ancestors ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];

beforeAll(async () => {
  t = await createTestApp({ config: { webDistDir: distDir } });
  token = (await t.signup()).token;
  await publishChat('help-desk', {
    enabled: true,
    allowedOrigins: ['https://shop.example', 'http://127.0.0.1:5200'],
  });
  await publishChat('switched-off', { enabled: false, allowedOrigins: ['https://shop.example'] });
  await publishChat('own-site-only', { enabled: true });
}, 60_000);
afterAll(() => t?.close());

describe('the chat page (GET /chat/:slug)', () => {
  it("may be framed by its app's allowed origins, under the rest of the usual policy and without X-Frame-Options", async () => {
    const res = await page('/chat/help-desk?embed=1');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(frameAncestorsOf(res)).toBe("'self' https://shop.example http://127.0.0.1:5200");
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-frame-options']).toBeUndefined();
    // The slug's case does not matter, as for the app itself.
    expect(frameAncestorsOf(await page('/chat/Help-Desk/'))).toBe(
      "'self' https://shop.example http://127.0.0.1:5200",
    );
  });

  it('is framed by our own pages only for an unknown slug, an app switched off or one that allows no origin', async () => {
    for (const url of ['/chat/no-such-app', '/chat/switched-off', '/chat/own-site-only']) {
      const res = await page(url);
      expect(frameAncestorsOf(res), url).toBe("'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it("keeps every other page unframed, the chat app's pages below its own included", async () => {
    for (const url of ['/', '/workflows', '/chat', '/chat/help-desk/threads', '/x/chat/help-desk']) {
      const res = await page(url);
      expect(frameAncestorsOf(res), url).toBe("'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });
});

describe("the widget's script (GET /widget.js)", () => {
  it('is JavaScript any site may load, cached for five minutes', async () => {
    const res = await page('/widget.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('(function(){})();');
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the allowed origins as the page reads them', () => {
  const app = (fields: Partial<ChatApp>) =>
    ({ enabled: true, allowedOrigins: ['https://a.example'], ...fields }) as ChatApp;

  it('reads an app once for a few seconds, then again: an edit or the off switch reaches the page that late', async () => {
    let clock = 0;
    const bySlug = vi.fn(async () => app({}));
    const frameAncestors = createFrameAncestors({ bySlug }, { ttlMs: 5_000, now: () => clock });

    expect(await frameAncestors('help-desk')).toEqual(['https://a.example']);
    expect(await frameAncestors('HELP-DESK')).toEqual(['https://a.example']);
    expect(bySlug).toHaveBeenCalledTimes(1);

    bySlug.mockResolvedValue(app({ enabled: false }));
    clock = 4_999;
    expect(await frameAncestors('help-desk')).toEqual(['https://a.example']);
    clock = 5_001;
    expect(await frameAncestors('help-desk')).toEqual([]);
    expect(bySlug).toHaveBeenCalledTimes(2);
  });

  it('never asks the database for what is not a slug, and answers none when it cannot', async () => {
    const bySlug = vi.fn(async (): Promise<ChatApp | undefined> => {
      throw new Error('database down');
    });
    const frameAncestors = createFrameAncestors({ bySlug });
    expect(await frameAncestors('no')).toEqual([]);
    expect(await frameAncestors('a'.repeat(49))).toEqual([]);
    expect(bySlug).not.toHaveBeenCalled();

    expect(await frameAncestors('help-desk')).toEqual([]);
    // Not remembered: asked again on the next request.
    bySlug.mockResolvedValue(app({}));
    expect(await frameAncestors('help-desk')).toEqual(['https://a.example']);
  });
});
