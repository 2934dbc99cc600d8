import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { AGENT_TEST_GREETING } from '@crewline/contracts';
import type { Page } from '@playwright/test';
import { createAccount, expect, signInAs, snapScreens, test } from './fixtures';

// A fake model server of this test's own: its scripted replies are not shared with other specs.
let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

/**
 * A toast shown while the playground is open. The open panel hides the rest of the page from the
 * accessibility tree (the notifications region with it, so expectToast cannot find it by role);
 * Radix announces each toast through a live region of its own, which stays heard.
 */
async function expectToastOverPanel(page: Page, text: string) {
  await expect(page.locator('[data-slot="toast"]').getByText(text, { exact: true })).toBeVisible();
}

const GREETING_REPLY = 'Hi! I am Pricing Scout and I track competitor prices for you every week.';

test('Test opens the playground: streamed replies, tool calls, tokens, time, Stop and New chat', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const config = await request.put('/api/tools/configurations/openai_config', {
    headers,
    data: { config: { baseUrl: fake.url, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  expect(config.ok()).toBe(true);
  const agentRes = await request.post('/api/agents', {
    headers,
    data: { name: 'Pricing Scout', role: 'Market researcher', goal: 'Track competitor prices' },
  });
  expect(agentRes.status()).toBe(201);
  const agent = await agentRes.json();
  // A file tool the model is scripted to call; its name for the model is its slug and id prefix.
  const toolRes = await request.post('/api/tools', {
    headers,
    data: { name: 'Notes', category: 'file', config: {} },
  });
  const tool = await toolRes.json();
  expect(
    (
      await request.post(`/api/agents/${agent.id}/tools/${tool.id}`, { headers, data: { config: {} } })
    ).status(),
  ).toBe(201);
  const toolName = `notes_${(tool.id as string).replace(/-/g, '').slice(0, 8)}`;

  await signInAs(page, account);
  await page.goto('/agents');
  const card = page.getByRole('article', { name: 'Pricing Scout' });

  // Test: the greeting goes by itself and the reply streams in, word by word, then the test's toast.
  // Fifteen words, 250 ms apart: the reply is seen streaming even on a busy machine.
  fake.script([{ content: GREETING_REPLY, chunkDelayMs: 250 }]);
  await card.getByRole('button', { name: 'Test' }).click();
  const panel = page.getByRole('dialog', { name: 'Pricing Scout' });
  const log = panel.getByRole('log', { name: 'Conversation with Pricing Scout' });
  const message = panel.getByRole('textbox', { name: 'Message' });
  await expect(message).toBeFocused();
  await expect(log.getByTestId('playground-user-message')).toHaveText(`You: ${AGENT_TEST_GREETING}`);
  const replies = log.getByTestId('playground-reply');
  const greeting = replies.nth(0);
  await expect(greeting).toContainText('Hi! I am');
  await expect(greeting).toHaveAttribute('data-status', 'streaming');
  await expect(panel.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(greeting).toHaveAttribute('data-status', 'done');
  await expect(greeting).toContainText(GREETING_REPLY);
  await expectToastOverPanel(page, 'Agent Test Successful');
  await expect(greeting.getByTestId('playground-reply-stats')).toHaveText(
    /^\d+ prompt · \d+ completion tokens · \d+(\.\d)? m?s$/,
  );
  await expect(message).toBeFocused();

  // Later replies give no toast: wait for the test's to go first.
  await expect(page.locator('[data-slot="toast"]')).toHaveCount(0, { timeout: 15_000 });

  // Shift+Enter is a new line; Enter sends. The model is scripted to call the agent's tool.
  fake.script([
    {
      toolCalls: [
        {
          name: toolName,
          arguments: { operation: 'write', path: 'prices.txt', content: 'Acme widget: 4 EUR' },
        },
      ],
    },
    { content: 'Noted the Acme widget at 4 EUR in prices.txt.' },
  ]);
  await message.fill('Note this price:');
  await message.press('Shift+Enter');
  await message.pressSequentially('Acme widget 4 EUR');
  await expect(message).toHaveValue('Note this price:\nAcme widget 4 EUR');
  await message.press('Enter');
  await expect(message).toHaveValue('');
  const noted = replies.nth(1);
  await expect(noted).toHaveAttribute('data-status', 'done');
  await expect(noted).toContainText('Noted the Acme widget at 4 EUR in prices.txt.');
  const call = noted.getByTestId('playground-tool-call');
  await expect(call).toHaveCount(1);
  await expect(call).toContainText(toolName);
  await expect(call).toContainText(/\d+ ms/);
  await expect(message).toBeFocused();
  // Collapsed until clicked.
  await expect(call.getByTestId('playground-tool-call-details')).toHaveCount(0);
  const toggle = call.getByRole('button');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(call.getByTestId('playground-tool-call-details')).toContainText('"path": "prices.txt"');
  await expect(call.getByTestId('playground-tool-result')).not.toBeEmpty();
  await expect(noted.getByTestId('playground-reply-stats')).toContainText(
    /\d+ prompt · \d+ completion tokens/,
  );
  await expect(page.locator('[data-slot="toast"]')).toHaveCount(0);

  // A second message of the user's: the model receives the conversation so far with it.
  fake.script([{ content: 'You asked me to note the Acme widget price.' }]);
  await message.fill('What did I ask you?');
  await message.press('Enter');
  await expect(replies.nth(2)).toContainText('You asked me to note the Acme widget price.');
  const sent = fake.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  expect(sent[0].role).toBe('system');
  expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    AGENT_TEST_GREETING,
    'Note this price:\nAcme widget 4 EUR',
    'What did I ask you?',
  ]);

  await snapScreens(page, panel, 'agent-playground', { waitForToasts: false });

  // A failed reply says why in the conversation; the user goes on typing.
  fake.script([{ error: { status: 400, message: 'This model does not exist' } }]);
  await message.fill('Try another model');
  await message.press('Enter');
  await expect(replies.nth(3).getByTestId('playground-reply-error')).toContainText(
    'This model does not exist',
  );
  await expect(message).toBeFocused();

  // Stop a slow reply half-way: it stays as far as it came.
  const counting = Array.from({ length: 30 }, (_, i) => `n${i + 1}`).join(' ');
  fake.script([{ content: counting, chunkDelayMs: 200 }]);
  await message.fill('Count to thirty, slowly');
  await message.press('Enter');
  const slow = replies.nth(4);
  await expect(slow).toContainText('n3');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(slow).toHaveAttribute('data-status', 'stopped');
  await expect(slow).toContainText('Stopped');
  const cut = await slow.textContent();
  await page.waitForTimeout(800);
  expect(await slow.textContent()).toBe(cut);
  expect(cut).not.toContain('n30');
  await expect(panel.getByRole('button', { name: 'Send message' })).toBeVisible();
  await expect(message).toBeFocused();

  await snapScreens(page, panel, 'agent-playground-stopped', { waitForToasts: false });

  // New chat starts over.
  await panel.getByRole('button', { name: 'New chat' }).click();
  await expect(replies).toHaveCount(0);
  await expect(log).toContainText('Ask Pricing Scout anything');
  await expect(message).toBeFocused();
  await snapScreens(page, panel, 'agent-playground-empty');

  // Closing the panel leaves the agents page as it was.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(card).toBeVisible();
});

test('the first reply failing gives the Agent Test Failed toast, and the reason in the conversation', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  await request.put('/api/tools/configurations/openai_config', {
    headers,
    data: { config: { baseUrl: fake.url, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  const res = await request.post('/api/agents', {
    headers,
    data: { name: 'Grumpy Scout', role: 'Researcher', goal: 'Refuse' },
  });
  expect(res.status()).toBe(201);
  fake.script([{ error: { status: 401, message: 'Incorrect API key provided' } }]);
  await signInAs(page, account);
  await page.goto('/agents');
  await page.getByRole('article', { name: 'Grumpy Scout' }).getByRole('button', { name: 'Test' }).click();
  await expectToastOverPanel(page, 'Agent Test Failed');
  const panel = page.getByRole('dialog', { name: 'Grumpy Scout' });
  await expect(panel.getByTestId('playground-reply-error')).toContainText('Incorrect API key provided');
});
