// The specs whose agents call a model: each test gets a fake model server of its own (`fake`), since
// scripted replies sit in one queue per server and the shared one on port 5299 serves other specs
// running in parallel. Its embeddings put texts sharing words close together, so a search finds the
// document that uses the query's words.
import type { APIRequestContext, Page } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { test as base, connectFakeModel, createAccount, signInAs } from './fixtures';

export const test = base.extend<{ fake: FakeLlmServer }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  fake: async ({}, use) => {
    const fake = await startFakeLlmServer();
    await use(fake);
    await fake.close();
  },
});

/** A new account whose organization's OpenAI connection (chat and embeddings) is `fake`. */
export async function accountOnFakeModel(request: APIRequestContext, fake: FakeLlmServer) {
  const account = await createAccount(request);
  await connectFakeModel(request, account, fake.url);
  return { account, headers: { authorization: `Bearer ${account.token}` } };
}

/** A new account on `fake`, as accountOnFakeModel makes it, and signed in on `page`. */
export async function signedInOnFakeModel(page: Page, request: APIRequestContext, fake: FakeLlmServer) {
  const created = await accountOnFakeModel(request, fake);
  await signInAs(page, created.account);
  return created;
}
