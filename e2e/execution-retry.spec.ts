import type { APIRequestContext } from '@playwright/test';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { createAccount, expect, expectToast, signInAs, test, snapScreens } from './fixtures';
import { createChainWorkflow } from './chain-workflow';

// Retry of a failed run (docs/product-rules.md, Run review): the second agent's connection has a
// wrong key, the run fails there; once the key is fixed in Settings, Retry reuses the first agent's
// output (no model call) and runs the second.

/** The only key the fake model accepts (it answers 401 to any other, as the real APIs do). */
const GOOD_KEY = 'sk-e2e-good-key-0123456789';
const WRONG_KEY = 'sk-ant-e2e-wrong-key-0123';
const RESEARCH = 'Research notes: tides rise twice a day.';
const ARTICLE = 'Final article: the sea keeps its schedule.';

let fake: FakeLlmServer;
test.beforeEach(async () => {
  fake = await startFakeLlmServer({ requireKey: GOOD_KEY });
});
test.afterEach(async () => {
  await fake?.close();
});

const chatCalls = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');
const messageCalls = () => fake.requests.filter((r) => r.path === '/v1/messages');

/** Researcher (OpenAI, right key) → Writer (Anthropic, wrong key), an active sequential workflow. */
async function setUp(request: APIRequestContext) {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  for (const [id, apiKey] of [
    ['openai_config', GOOD_KEY],
    ['anthropic_config', WRONG_KEY],
  ] as const) {
    const res = await request.put(`/api/tools/configurations/${id}`, {
      headers,
      data: { config: { baseUrl: fake.url, apiKey }, isActive: true },
    });
    expect(res.ok()).toBe(true);
  }
  const agent = async (name: string, role: string, llmProvider: string, llmModel: string) => {
    const res = await request.post('/api/agents', {
      headers,
      data: { name, role, goal: 'Write about tides', llmProvider, llmModel },
    });
    expect(res.status()).toBe(201);
    return (await res.json()).id as string;
  };
  const researcher = await agent('Researcher', 'Fact finder', 'openai', 'gpt-4o');
  const writer = await agent('Writer', 'Columnist', 'anthropic', 'claude-sonnet-4-5');
  const workflow = await createChainWorkflow(request, headers, 'Tide report ', [
    { nodeId: 'research', agentId: researcher, label: 'Researcher' },
    { nodeId: 'write', agentId: writer, label: 'Writer' },
  ]);
  return { account, headers, workflow };
}

test('a run failed by a wrong key is retried after the key is fixed, reusing the step that completed', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { account, headers, workflow } = await setUp(request);
  fake.script([{ content: RESEARCH }, { content: ARTICLE }]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, account);

  // Run it: the Researcher answers, the Writer's connection is refused.
  const started = await request.post(`/api/workflows/${workflow.id}/execute`, { headers, data: {} });
  expect(started.status()).toBe(202);
  const failedId = ((await started.json()) as { id: string }).id;

  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const failedCard = page.getByRole('article', {
    name: `${workflow.name} execution ${failedId.slice(0, 8)}`,
  });
  await expect(failedCard.getByTestId('execution-status')).toHaveAttribute('data-status', 'failed', {
    timeout: 20_000,
  });
  await expect(failedCard.getByTestId('execution-version')).toHaveText(/v1$/);
  // The card names the step that failed, with the provider's words.
  await expect(failedCard.getByTestId('execution-error')).toContainText(
    'Step "Writer" failed: Anthropic answered 401: Incorrect API key provided',
  );
  await expect(failedCard.getByRole('button', { name: 'Retry' })).toBeVisible();
  await snapScreens(page, failedCard, 'retry-failed-card');
  expect(chatCalls()).toHaveLength(1);
  expect(messageCalls()).toHaveLength(1);
  expect(messageCalls()[0]!.headers['x-api-key']).toBe(WRONG_KEY);

  // Its details: the Researcher's output, and the graph with the Writer marked failed.
  await failedCard.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  await expect(details.getByTestId('agent-output-name')).toHaveText(['Researcher']);
  await expect(details.getByTestId('execution-result')).toHaveCount(0);
  // What the completed step used: its tokens, and 1 of the 2 planned steps.
  await expect(details.getByTestId('execution-steps')).toHaveText('1 / 2');
  const researchTokens = await details.getByTestId('agent-output-tokens').innerText();
  await expect(details.getByTestId('execution-tokens')).toHaveText(researchTokens.replace(/ tokens.*$/, ''));
  await expect(details.getByTestId('execution-tokens')).not.toHaveText('—');
  await details.getByRole('button', { name: 'View graph' }).click();
  const graph = page.getByRole('dialog', { name: /Workflow graph/ });
  await expect(graph.getByTestId('graph-node-research')).toHaveAttribute('data-status', 'completed');
  await expect(graph.getByTestId('graph-node-write')).toHaveAttribute('data-status', 'failed');
  await expect(graph.getByTestId('graph-node-write')).toContainText('Failed');
  await snapScreens(page, graph, 'retry-failed-graph');
  await page.keyboard.press('Escape');
  await expect(graph).toBeHidden();
  await expect(details).toBeVisible();
  await snapScreens(page, details, 'retry-failed-details');
  await details.getByRole('button', { name: 'Close' }).first().click();

  // Fix the Anthropic key in Settings → Tools.
  await page.goto('/settings/profile?tab=tools');
  const anthropic = page.getByRole('region', { name: 'Anthropic', exact: true });
  await anthropic.getByRole('button', { name: 'Edit' }).click();
  await anthropic.getByLabel('API Key').fill(GOOD_KEY);
  await anthropic.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Configuration updated');

  // Retry from the failed card: a new run appears and completes.
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  await failedCard.getByRole('button', { name: 'Retry' }).click();
  await expectToast(page, 'Retry Started');
  await expectToast(page, `"${workflow.name}" is running again; the steps that completed are reused`);
  const cards = page.getByTestId('execution-card');
  await expect(cards).toHaveCount(2);
  const retried = cards.first();
  await expect(retried).not.toHaveAttribute('data-execution-id', failedId);
  await expect(retried.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 20_000,
  });
  await expect(retried.getByTestId('execution-output')).toHaveText(ARTICLE);
  await expect(retried.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  const retriedId = (await retried.getAttribute('data-execution-id'))!;
  // The two runs link to each other; the failed one is retried once, so it no longer offers Retry.
  await expect(retried.getByTestId('execution-retry-links')).toHaveText(
    `Retry of run #${failedId.slice(0, 8)}`,
  );
  await expect(
    failedCard.getByRole('link', { name: `Retried as run #${retriedId.slice(0, 8)}` }),
  ).toBeVisible();
  await expect(failedCard.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await snapScreens(page, failedCard, 'retry-retried-card');

  // The Researcher was not asked again; the Writer was, with the fixed key and the reused notes.
  expect(chatCalls()).toHaveLength(1);
  expect(messageCalls()).toHaveLength(2);
  expect(messageCalls()[1]!.headers['x-api-key']).toBe(GOOD_KEY);
  expect(JSON.stringify(messageCalls()[1]!.body.messages)).toContain(RESEARCH);

  // Its details: the result first, the version, the reused step and the one that ran.
  await retried.getByRole('button', { name: 'View Details' }).click();
  await expect(details).toBeVisible();
  await expect(details.getByTestId('execution-result-text')).toHaveText(ARTICLE);
  await expect(details.getByTestId('execution-version')).toHaveText('v1');
  const outputs = details.getByTestId('agent-output');
  await expect(outputs).toHaveCount(2);
  await expect(outputs.nth(0).getByTestId('agent-output-name')).toHaveText('Researcher');
  await expect(outputs.nth(0).getByTestId('agent-output-reused')).toHaveText(
    `Reused from run ${failedId.slice(0, 8)}`,
  );
  await expect(outputs.nth(1).getByTestId('agent-output-name')).toHaveText('Writer');
  await expect(outputs.nth(1).getByTestId('agent-output-reused')).toHaveCount(0);
  await expect(outputs.nth(1).getByTestId('agent-output-content')).toHaveText(ARTICLE);
  // The result comes before the per-step outputs.
  const resultBox = await details.getByTestId('execution-result').boundingBox();
  const firstOutput = await outputs.nth(0).boundingBox();
  expect(resultBox!.y).toBeLessThan(firstOutput!.y);
  // A completed run is not retried.
  await expect(details.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
  await snapScreens(page, details, 'retry-completed-details');

  // The graph of v1 with each step's status in this run.
  await details.getByRole('button', { name: 'View graph' }).click();
  await expect(graph).toBeVisible();
  await expect(graph).toContainText('v1');
  await expect(graph.getByTestId('graph-node-research')).toHaveAttribute('data-status', 'reused');
  await expect(graph.getByTestId('graph-node-write')).toHaveAttribute('data-status', 'completed');
  // Read-only: nothing can be connected.
  await expect(graph.locator('.react-flow__handle.connectable')).toHaveCount(0);
  await snapScreens(page, graph, 'retry-completed-graph');
  await page.keyboard.press('Escape');
  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(details).toBeHidden();

  // The failed run's details link to its retry instead of offering Retry; the link opens the retry.
  await failedCard.getByRole('button', { name: 'View Details' }).click();
  await expect(details.getByTestId('execution-steps')).toHaveText('1 / 2');
  await expect(details.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
  const toRetry = details.getByRole('link', { name: `Retried as run #${retriedId.slice(0, 8)}` });
  await expect(toRetry).toBeVisible();
  await snapScreens(page, details, 'retry-retried-details');
  await toRetry.click();
  await expect(page).toHaveURL(new RegExp(`run=${retriedId}`));
  await expect(details.getByTestId('execution-retry-links')).toHaveText(
    `Retry of run #${failedId.slice(0, 8)}`,
  );
});
