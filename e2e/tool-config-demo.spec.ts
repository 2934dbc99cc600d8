import type { Page } from '@playwright/test';
import { createAccount, expect, signInAs, snapScreens, test } from './fixtures';

/** Every request the page makes to the API, as "METHOD /path", in order. */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      calls.push(`${request.method()} ${url.pathname}`);
    }
  });
  return calls;
}

// The app shell's own session check: made before the page shows (and again only if the session is
// re-checked). On this route the shell has no top navigation, so it makes no other API call.
const SHELL_SESSION_CHECK = 'GET /api/auth/me';

test('the tool configuration demo edits, saves, tests and toggles cards without calling the server', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await signInAs(page, await createAccount(request));
  const apiCalls = recordApiCalls(page);
  await page.goto('/tool-config-demo');
  await expect(page).toHaveTitle('Tool Configuration Demo · Crewline');
  await expect(page.getByRole('heading', { name: 'Tool Configuration Demo', level: 1 })).toBeVisible();
  const callsBeforeUse = apiCalls.length;
  expect(apiCalls).toEqual([SHELL_SESSION_CHECK]);
  // Not one of the app areas: no top navigation, so the page offers the way back itself.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible();

  // Tabs: LLM Connections first, with OpenAI and Anthropic.
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText(['LLM Connections', 'Specialist Tools', 'Infrastructure']);
  await expect(tabs.getByRole('tab', { name: 'LLM Connections' })).toHaveAttribute('aria-selected', 'true');
  const openai = page.getByRole('region', { name: 'OpenAI' });
  const anthropic = page.getByRole('region', { name: 'Anthropic' });
  await expect(openai).toBeVisible();
  await expect(anthropic).toBeVisible();
  // Secrets read masked, as on the real connection cards; the key itself is nowhere on the page.
  await expect(openai.getByText('••••••••e6c0', { exact: true })).toBeVisible();
  await expect(page.getByText('sk-demo-3f9c2a7b41d8e6c0')).toHaveCount(0);
  await expect(anthropic.getByText('Claude 4.0 Sonnet', { exact: true })).toBeVisible();
  await expect(openai.getByText('untested', { exact: true })).toBeVisible();
  await snapScreens(page, openai, 'tool-config-demo-llm');

  // A card without an API key fails its test at once, and says why.
  await anthropic.getByRole('button', { name: 'Test' }).click();
  await expect(anthropic.getByRole('status')).toHaveText('Test failed. API Key is required.');
  await expect(anthropic.getByText('error', { exact: true })).toBeVisible();

  // Specialist Tools: Pinecone.
  await tabs.getByRole('tab', { name: 'Specialist Tools' }).click();
  await expect(tabs.getByRole('tab', { name: 'Specialist Tools' })).toHaveAttribute('aria-selected', 'true');
  await expect(openai).toBeHidden();
  const pinecone = page.getByRole('region', { name: 'Pinecone' });
  await expect(pinecone.getByRole('status')).toHaveText('Not tested yet.');

  await pinecone.getByRole('button', { name: 'Edit' }).click();
  await expect(pinecone.getByLabel('API Key')).toBeFocused();
  // Opening edit mode does not also save the untouched form.
  await expect(pinecone.getByText('API Key is required.')).toHaveCount(0);
  await expect(pinecone.getByLabel('Dimension')).toHaveValue('1536');
  await pinecone.getByLabel('API Key').fill('pc-demo-key-0042');
  await pinecone.getByLabel('Index Name').fill('agent-memory');
  // A dimension that is not a number is refused, in the field.
  await pinecone.getByLabel('Dimension').fill('lots');
  await pinecone.getByRole('button', { name: 'Save' }).click();
  await expect(pinecone.getByText('Dimension must be a whole number from 1 to 20000.')).toBeVisible();
  await expect(pinecone.getByLabel('Dimension')).toBeFocused();
  await expect(pinecone.getByText('untested', { exact: true })).toBeVisible();
  await snapScreens(page, pinecone, 'tool-config-demo-pinecone-edit', { fullPage: true });
  await pinecone.getByLabel('Dimension').fill('1536');
  await pinecone.getByRole('button', { name: 'Save' }).click();

  // Saved: read-only again, connected, the key masked.
  await expect(pinecone.getByText('connected', { exact: true })).toBeVisible();
  await expect(pinecone.getByRole('status')).toHaveText('Settings saved.');
  await expect(pinecone.getByText('agent-memory', { exact: true })).toBeVisible();
  await expect(pinecone.getByText('••••••••0042', { exact: true })).toBeVisible();
  await expect(pinecone.getByRole('button', { name: 'Edit' })).toBeFocused();

  // Test: 'Testing…' for about 2 seconds, then success.
  const started = Date.now();
  await pinecone.getByRole('button', { name: 'Test' }).click();
  await expect(pinecone.getByRole('button', { name: 'Testing…' })).toBeVisible();
  await expect(pinecone.getByRole('status')).toHaveText('Testing the connection…');
  await expect(pinecone.getByRole('status')).toHaveText('Connection successful.', { timeout: 5000 });
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(1900);
  expect(took).toBeLessThan(4000);
  await expect(pinecone.getByRole('button', { name: 'Test' })).toBeVisible();
  await expect(pinecone.getByText('connected', { exact: true })).toBeVisible();

  // Cancel discards an edit.
  await pinecone.getByRole('button', { name: 'Edit' }).click();
  await expect(pinecone.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(pinecone.getByRole('status')).toHaveText('Connection successful.');
  await pinecone.getByLabel('Index Name').fill('other-index');
  await pinecone.getByRole('button', { name: 'Cancel' }).click();
  await expect(pinecone.getByText('agent-memory', { exact: true })).toBeVisible();
  await expect(pinecone.getByText('other-index')).toHaveCount(0);

  // The toggle flips active.
  const toggle = page.getByRole('switch', { name: 'Pinecone active' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(pinecone.getByText('Active', { exact: true })).toBeVisible();
  await snapScreens(page, pinecone, 'tool-config-demo-pinecone-connected');

  // Infrastructure: SendGrid; and back, the Pinecone card is as it was left.
  await tabs.getByRole('tab', { name: 'Infrastructure' }).click();
  const sendgrid = page.getByRole('region', { name: 'SendGrid' });
  await expect(sendgrid.getByText('From Email', { exact: true })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'SendGrid active' })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Specialist Tools' }).click();
  await expect(pinecone.getByText('connected', { exact: true })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');

  // Nothing of the above reached the server.
  expect(apiCalls.slice(callsBeforeUse).filter((call) => call !== SHELL_SESSION_CHECK)).toEqual([]);
});

test('the demo is for signed-in users: a visitor is sent to the login form', async ({ page }) => {
  await page.goto('/tool-config-demo');
  await expect(page).toHaveURL(/\/login\?next=%2Ftool-config-demo$/);
});
