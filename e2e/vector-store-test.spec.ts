import type { APIRequestContext } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { createAccount, expect, expectToast, signInAs, snapScreens, test, type Account } from './fixtures';

// The Test button of a Vector Store tool on the Tools page: the server checks the tool's knowledge base
// (or its Pinecone index and key; the server suites run that part against a fake Pinecone) and the
// answer is shown in a toast.

let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer();
});
test.afterEach(async () => {
  await fake?.close();
});

async function post(request: APIRequestContext, account: Account, url: string, data: object) {
  const res = await request.post(url, { headers: { authorization: `Bearer ${account.token}` }, data });
  expect(res.ok(), `${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

test('a Vector Store tool tells whether it can search', async ({ page, request }) => {
  const account = await createAccount(request);
  const connection = await request.put('/api/tools/configurations/openai_config', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { config: { baseUrl: fake.url, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  expect(connection.ok()).toBe(true);
  const base = await post(request, account, '/api/knowledge-bases', { name: 'Support Handbook' });
  await post(request, account, '/api/tools', {
    name: 'Handbook Search',
    category: 'vector_store',
    config: { knowledgeBaseId: base.id },
  });
  await post(request, account, '/api/tools', {
    name: 'Pinecone Docs',
    category: 'vector_store',
    provider: 'Pinecone',
    config: { indexName: 'product-docs', dimensions: 1536 },
  });
  await post(request, account, '/api/tools', {
    name: 'Orders API',
    category: 'api',
    config: { baseUrl: 'https://api.example.com' },
  });

  await signInAs(page, account);
  await page.goto('/tools');
  const card = (name: string) => page.getByRole('article', { name });
  // Only Vector Store tools have the action.
  await expect(card('Orders API').getByRole('button', { name: 'Configure Orders API' })).toBeVisible();
  await expect(card('Orders API').getByRole('button', { name: /^Test/ })).toHaveCount(0);

  await card('Pinecone Docs').getByRole('button', { name: 'Test Pinecone Docs' }).click();
  await expectToast(page, 'Pinecone Docs cannot search');
  await expectToast(page, 'Choose a knowledge base, or enter a Pinecone index name and API key.');

  await card('Handbook Search').getByRole('button', { name: 'Test Handbook Search' }).click();
  await expectToast(page, 'Handbook Search cannot search');
  await expectToast(
    page,
    'The knowledge base "Support Handbook" has no ready documents yet: add one before agents search it.',
  );
  const toast = page.locator('[data-slot="toast"]');
  await snapScreens(page, toast, 'vector-store-test-failed', { waitForToasts: false });

  // A document later, the same tool is ready.
  const document = await post(request, account, `/api/knowledge-bases/${base.id}/documents`, {
    name: 'refunds.md',
    mediaType: 'text/markdown',
    content: 'Refunds are paid back within five business days.',
  });
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/knowledge-bases/${base.id}/documents`, {
          headers: { authorization: `Bearer ${account.token}` },
        });
        return ((await res.json()) as { id: string; status: string }[]).find((d) => d.id === document.id)
          ?.status;
      },
      { timeout: 15_000 },
    )
    .toBe('ready');
  await card('Handbook Search').getByRole('button', { name: 'Test Handbook Search' }).click();
  await expectToast(page, 'Handbook Search works');
  await expectToast(page, 'The knowledge base "Support Handbook" is ready: 1 document, 1 passage.');
  await snapScreens(page, toast, 'vector-store-test-ok', { waitForToasts: false });
});
