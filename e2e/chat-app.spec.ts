import type { Page } from '@playwright/test';
import { expect, expectToast, inEachSchemeAndSize, signInAs, snap } from './fixtures';
import { test } from './fake-model';
import { setUpOneAgentWorkflow } from './one-agent-workflow';

// A chat app from the web: an owner publishes an active workflow as a chat app in the builder's
// Settings tab, and a visitor who is signed out chats with it on its hosted page, /chat/<slug>, the
// reply streaming in as the model writes it; a reload shows the conversation again.

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const SUGGESTION = 'What changed this week?';
const GREETING = 'Hi! I summarize **competitor prices**.';

/** The builder's Settings tab on `id`, its Chat app section once shown. */
async function openChatSection(page: Page, id: string) {
  await page.goto(`/workflows/edit/${id}`);
  await expect(page.getByRole('heading', { name: 'Edit Workflow' })).toBeVisible();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Chat app' });
  await expect(section).toBeVisible();
  return section;
}

test('an owner publishes a chat app and a signed-out visitor chats with it, the reply streamed', async ({
  page,
  request,
  browser,
  baseURL,
  fake,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { account, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  await signInAs(page, account);

  // The builder: publish, open to anyone with the link, with a greeting and a suggestion.
  const section = await openChatSection(page, workflow.id);
  await section.getByRole('switch', { name: 'Publish as a chat app' }).click();
  const slug = workflow.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  await expect(section.getByLabel('Slug')).toHaveValue(slug);
  await section.getByLabel('Greeting').fill(GREETING);
  await section.getByRole('button', { name: 'Add a suggestion' }).click();
  await section.getByLabel('Suggested message 1', { exact: true }).fill(SUGGESTION);
  await section.getByRole('radio', { name: 'Anyone with the link', exact: true }).check();
  await section.getByRole('button', { name: 'Save chat app' }).click();
  await expectToast(page, 'Chat app published');
  const address = `${new URL(baseURL!).origin}/chat/${slug}`;
  await expect(section.getByLabel('Chat page address', { exact: true })).toHaveText(address);
  await expect(section.getByLabel('Widget tag', { exact: true })).toHaveText(
    `<script src="${new URL(baseURL!).origin}/widget.js" data-app="${slug}" async></script>`,
  );
  await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 10_000 });
  const heading = section.getByRole('heading', { name: 'Chat app' });
  await inEachSchemeAndSize(page, async (scheme, size) => {
    await heading.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(400);
    await snap(page, `chat-app-builder-${scheme}-${size}`);
    await section
      .getByRole('group', { name: 'Who can use it' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    await snap(page, `chat-app-builder-fields-${scheme}-${size}`);
  });

  // A visitor, signed out in a browser of their own, opens the page and sends the suggestion.
  // Thirty words, 150 ms apart: about 4.5 s of reply, time enough to see it grow.
  fake.script([{ content: words(30), chunkDelayMs: 150 }]);
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.setViewportSize({ width: 1280, height: 900 });
  await visitor.goto(`/chat/${slug}`);
  await expect(visitor.getByRole('heading', { level: 1, name: workflow.name })).toBeVisible();
  await expect(visitor.getByText('competitor prices')).toBeVisible();
  await visitor.getByRole('button', { name: SUGGESTION }).click();

  const log = visitor.getByRole('log', { name: 'Conversation' });
  await expect(log.locator('[data-role="user"]')).toHaveText(SUGGESTION);
  const reply = log.locator('[data-role="assistant"]');
  // Part of the reply shows while it is still being written.
  await expect(reply).toContainText('word2');
  await expect(reply).toHaveAttribute('data-streaming', 'true');
  expect(await reply.textContent()).not.toContain('word29');
  await snap(visitor, 'chat-app-page-streaming');
  // Then the whole reply.
  await expect(reply).not.toHaveAttribute('data-streaming', 'true', { timeout: 20_000 });
  await expect(reply).toHaveAttribute('data-status', 'done');
  await expect(reply).toHaveText(words(30));

  // A reload shows the conversation again.
  await visitor.reload();
  await expect(log.locator('[data-role="user"]')).toHaveText(SUGGESTION);
  await expect(reply).toHaveText(words(30));
  await expect(visitor.getByRole('button', { name: SUGGESTION })).toHaveCount(0);
  await inEachSchemeAndSize(visitor, async (scheme, size) => {
    await visitor.waitForTimeout(300);
    await snap(visitor, `chat-app-page-${scheme}-${size}`);
  });

  // A new conversation offers the suggestions again.
  await visitor.getByRole('button', { name: 'New conversation' }).click();
  await expect(visitor.getByRole('button', { name: SUGGESTION })).toBeVisible();
  await expect(log.locator('[data-role]')).toHaveCount(0);
  await inEachSchemeAndSize(visitor, async (scheme, size) => {
    await visitor.waitForTimeout(300);
    await snap(visitor, `chat-app-page-new-${scheme}-${size}`);
  });
  // An address with no app behind it says so in a page of its own.
  await visitor.goto('/chat/no-such-chat-app');
  await expect(
    visitor.getByRole('heading', { name: 'This chat does not exist, or is not available right now.' }),
  ).toBeVisible();
  await snap(visitor, 'chat-app-page-not-found');
  await visitorContext.close();

  // The owner sees the conversation in the builder, with its reply's run.
  const again = await openChatSection(page, workflow.id);
  await again.getByRole('button', { name: 'Conversations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversations' });
  await dialog.getByRole('button', { name: new RegExp(SUGGESTION.replace('?', '\\?')) }).click();
  await expect(dialog.getByText(words(30))).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'View run' })).toHaveAttribute(
    'href',
    /\/workflows\?tab=executions&run=/,
  );
  await snap(page, 'chat-app-conversations');
  await page.keyboard.press('Escape');

  // The guide, with the page's address and the widget's tag for this Crewline.
  await page.goto('/docs/chat-apps');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat apps' })).toBeVisible();
  await expect(
    page.getByText(`<script src="${new URL(baseURL!).origin}/widget.js" data-app="support" async></script>`),
  ).toBeVisible();
  await snap(page, 'chat-app-docs', { fullPage: true });
});
