import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { expect, inEachSchemeAndSize, snap, test, uniqueName } from './fixtures';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

// The embeddable chat widget (issue 41): a chat app's script tag on a page of another site opens the
// chat in a frame and chats; a site the app does not list cannot frame the chat. The other sites are
// small servers on other ports of 127.0.0.1: other origins, the same site as the app (its visitor
// cookie is SameSite=Lax, so it rides along over http only there).

let fake: FakeLlmServer;
const hosts: Server[] = [];

/** Serves the page `html()` answers at `/` from another port of 127.0.0.1; answers its origin. */
async function hostSite(html: () => string): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html());
  });
  hosts.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A shop's page, its own CSS styling every button and frame (which must not reach the widget's). */
const shopPage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bike shop</title>
<style>
  body { margin: 0; font: 16px/1.5 Georgia, serif; color: #1f2937; background: #fafaf9; }
  header { padding: 16px 24px; background: #14532d; color: #fff; font-size: 22px; }
  main { padding: 24px; max-width: 640px; }
  button { background: #dc2626 !important; border: 4px dashed #000 !important; width: 10px !important; }
  iframe { border: 6px solid #f59e0b; }
</style></head>
<body><header>Bike shop</header><main><h1>Touring bikes</h1>
<p>Steel frames, hub gears, racks front and back. Ask us anything about sizes and delivery.</p>
<a href="#catalogue">Catalogue</a></main>${body}</body></html>`;

async function publishChat(
  request: Parameters<typeof setUpOneAgentWorkflow>[0],
  allowedOrigin: string,
): Promise<string> {
  const { headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  const slug = uniqueName('bike-help-').toLowerCase();
  const res = await request.put(`/api/workflows/${workflow.id}/publishing`, {
    headers,
    data: {
      chat: {
        enabled: true,
        slug,
        name: 'Bike shop help',
        greeting: 'Hello! Ask me about our bikes.',
        access: 'link',
        allowedOrigins: [allowedOrigin],
      },
    },
  });
  expect(res.status()).toBe(200);
  return slug;
}

const launcher = (page: Page, name: 'Open chat' | 'Close chat') => page.getByRole('button', { name });

test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
  for (const server of hosts.splice(0)) await new Promise((resolve) => server.close(resolve));
});

test("the widget on an allowed site opens the chat in a frame, chats, and closes from the frame's button or Escape", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // The shop's origin is known once its server listens: the app allows it before the page loads.
  let slug = '';
  const shop = await hostSite(() =>
    shopPage(`<script src="${baseURL}/widget.js" data-app="${slug}" async></script>`),
  );
  slug = await publishChat(request, shop);
  fake.script([{ content: 'Our touring bikes come in five frame sizes, from 48 to 60 cm.', when: 'sizes' }]);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(shop);
  // Reached from the keyboard after the page's own link; the frame is made on the first open only.
  await page.getByRole('link', { name: 'Catalogue' }).focus();
  await page.keyboard.press('Tab');
  await expect(launcher(page, 'Open chat')).toBeFocused();
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(launcher(page, 'Close chat')).toHaveAttribute('aria-expanded', 'true');

  const chat = page.frameLocator('iframe[title="Chat"]');
  await expect(chat.getByText('Hello! Ask me about our bikes.')).toBeVisible({ timeout: 15_000 });
  await chat.getByLabel('Message').fill('Which sizes do the touring bikes come in?');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(
    chat.getByRole('log', { name: 'Conversation' }).getByText('five frame sizes, from 48 to 60 cm'),
  ).toBeVisible({ timeout: 20_000 });

  // The panel is 380×600 at the bottom right on a desktop, the whole screen on a phone.
  const frame = page.locator('iframe[title="Chat"]');
  expect(await frame.boundingBox()).toMatchObject({ x: 1280 - 20 - 380, width: 380, height: 600 });
  // The shop's CSS styles its own buttons, not the launcher.
  expect(await launcher(page, 'Close chat').boundingBox()).toMatchObject({ width: 56, height: 56 });
  await inEachSchemeAndSize(page, async (scheme, size) => {
    if (size === 'phone') {
      await expect(frame).toHaveJSProperty('offsetWidth', 390);
      await expect(frame).toHaveJSProperty('offsetHeight', 844);
    }
    await page.waitForTimeout(400);
    await snap(page, `chat-widget-open-${scheme}-${size}`);
  });

  // The chat page's own Close button asks the shop's page to close it.
  await chat.getByRole('button', { name: 'Close chat' }).click();
  await expect(launcher(page, 'Open chat')).toHaveAttribute('aria-expanded', 'false');
  await expect(frame).toBeHidden();
  await snap(page, 'chat-widget-closed-light-desktop');

  // Opened again, the conversation is still there; Escape on the shop's page closes it.
  await launcher(page, 'Open chat').click();
  await expect(chat.getByText('five frame sizes, from 48 to 60 cm')).toBeVisible();
  await page.getByRole('heading', { name: 'Touring bikes' }).click();
  await page.keyboard.press('Escape');
  await expect(launcher(page, 'Open chat')).toBeFocused();
  await expect(frame).toBeHidden();
});

test('a site the app does not list cannot frame its chat', async ({ page, request, baseURL }) => {
  test.setTimeout(60_000);
  const slug = await publishChat(request, 'http://127.0.0.1:1');
  const other = await hostSite(() =>
    shopPage(
      `<iframe title="Embedded chat" src="${baseURL}/chat/${slug}?embed=1" width="380" height="600"></iframe>`,
    ),
  );

  const framed = page.waitForResponse((response) => response.url().includes(`/chat/${slug}`));
  await page.goto(other);
  const response = await framed;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-security-policy']).toContain(
    "frame-ancestors 'self' http://127.0.0.1:1",
  );
  // The browser refuses it: the frame shows its error page, never the chat.
  await expect
    .poll(
      () =>
        page
          .frames()
          .find((frame) => frame !== page.mainFrame())
          ?.url(),
      { timeout: 10_000 },
    )
    .toMatch(/^chrome-error:/);
  await expect(page.frameLocator('iframe').getByLabel('Message')).toHaveCount(0);
  await snap(page, 'chat-widget-refused-light-desktop');
});
