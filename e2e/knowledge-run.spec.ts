import type { Page } from '@playwright/test';
import { pdfWithText } from '../apps/server/src/testing/hand-made-pdf';
import { expect, expectToast, snapScreens, uniqueName } from './fixtures';
import { signedInOnFakeModel, test } from './fake-model';
import { createAgentWorkflow } from './one-agent-workflow';

// The knowledge path end to end: a knowledge base with a Markdown file and a PDF, a Vector Store tool
// on it, an agent that searches it during a run, and the run's details showing what it retrieved.
// The model is a fake server of this test's own (its embeddings put texts sharing words close together,
// so a search finds the document that uses the query's words), scripted to call the search tool.

const POLICY = [
  '# Refund policy',
  '',
  'Refunds are paid back to the original card within five business days after the returned item ' +
    'arrives at our warehouse. A refund covers the price of the item and the original shipping fee ' +
    'when the item arrived damaged or was not what was ordered; otherwise the shipping fee is kept. ' +
    'Customers who paid by bank transfer get their refund paid back to the same account, and the ' +
    'support team sends an email with the refund reference once the payment has left.',
  '',
  '## Exchanges',
  '',
  'An item can be exchanged for another size or colour within thirty days of delivery.',
].join('\n');

const HANDBOOK_PDF = pdfWithText([
  ['Employee handbook', 'Laptops are replaced every three years by the IT desk.'],
  ['Badges are collected from reception on the first day.'],
]);

const QUERY = 'when are refunds paid back';
const ANSWER = 'Refunds are paid back to the original card within five business days (source: refunds.md).';

function documentRow(page: Page, name: string) {
  return page.getByTestId('knowledge-document').filter({ hasText: name });
}

test('an agent searches a knowledge base during a run, and the run details show what it retrieved', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);

  // The organization's OpenAI connection (embeddings and chat) is the fake server; the agent and its
  // workflow are made through the API (their own specs cover the forms and the builder).
  const { headers } = await signedInOnFakeModel(page, request, fake);
  const agentName = 'Support Agent';
  const agentRes = await request.post('/api/agents', {
    headers,
    data: {
      name: agentName,
      role: 'Customer support',
      goal: 'Answer customers from the support knowledge base',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  });
  expect(agentRes.status()).toBe(201);
  const agent = (await agentRes.json()) as { id: string };
  const workflowName = uniqueName('Support answer ');
  await createAgentWorkflow(
    request,
    headers,
    { id: agent.id, name: agentName, role: 'Customer support' },
    { name: workflowName },
  );

  // Create a knowledge base and upload a Markdown file and a PDF: both become ready.
  const kbName = uniqueName('Support FAQ ');
  await page.goto('/knowledge');
  await page.getByRole('button', { name: 'Create Knowledge Base' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create Knowledge Base' });
  await create.getByLabel('Name').fill(kbName);
  await create.getByLabel('Description').fill('What support answers customers');
  await create.getByRole('button', { name: 'Create Knowledge Base' }).click();
  await expectToast(page, 'Knowledge Base Created');
  await expect(page.getByRole('heading', { name: kbName, level: 1 })).toBeVisible();
  await page.getByLabel('Upload files').setInputFiles([
    { name: 'refunds.md', mimeType: 'text/markdown', buffer: Buffer.from(POLICY) },
    { name: 'handbook.pdf', mimeType: 'application/pdf', buffer: HANDBOOK_PDF },
  ]);
  for (const file of ['refunds.md', 'handbook.pdf']) {
    await expect(documentRow(page, file).getByText('ready', { exact: true })).toBeVisible({
      timeout: 30_000,
    });
  }

  // Search it on its page: the refund policy comes first.
  await page.getByRole('searchbox', { name: 'Search this knowledge base' }).fill(QUERY);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const found = page.getByRole('list', { name: 'Search results' }).getByTestId('search-hit');
  await expect(found.first().getByTestId('search-hit-document')).toHaveText('refunds.md');

  // A Vector Store tool on that knowledge base.
  const toolName = 'Support Search';
  await page.goto('/tools');
  await page.getByRole('button', { name: 'Create Tool' }).first().click();
  const toolDialog = page.getByRole('dialog');
  await toolDialog.getByLabel('Tool Name').fill(toolName);
  await toolDialog.getByLabel('Category').click();
  await page.getByRole('option', { name: 'Vector Store' }).click();
  // Pinecone's settings show until a knowledge base is chosen.
  await expect(toolDialog.getByLabel('Namespace')).toBeVisible();
  await toolDialog.getByLabel('Knowledge Base').click();
  await page.getByRole('option', { name: kbName }).click();
  await expect(toolDialog.getByLabel('Namespace')).toHaveCount(0);
  await expect(toolDialog.getByLabel('API Key')).toHaveCount(0);
  await snapScreens(page, toolDialog, 'vector-store-form');
  await toolDialog.getByRole('button', { name: 'Create Tool' }).click();
  await expectToast(page, 'Tool created');
  await expect(page.getByRole('article', { name: toolName })).toBeVisible();

  // Connect it to the agent, on the agent's Tools tab.
  await page.goto(`/agents/edit/${agent.id}`);
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByRole('button', { name: 'Connect Tool' }).click();
  const connect = page.getByRole('dialog');
  await connect.getByLabel('Tool').click();
  await page.getByRole('option', { name: new RegExp(toolName) }).click();
  await connect.getByRole('button', { name: 'Connect', exact: true }).click();
  await expectToast(page, 'Tool connected');
  await expect(page.getByTestId('agent-tool-link')).toHaveCount(1);

  // The model searches the knowledge base, then answers from what it found. The tool's model name is
  // `search_` and its slug with the first 8 hex digits of its id.
  const tools = (await (await request.get('/api/tools', { headers })).json()) as {
    id: string;
    name: string;
  }[];
  const tool = tools.find((t) => t.name === toolName)!;
  const searchTool = `search_support_search_${tool.id.replace(/-/g, '').slice(0, 8)}`;
  fake.script([
    { toolCalls: [{ name: searchTool, arguments: { query: QUERY, topK: 3 } }] },
    // Paced, as a model writes: the run is followed live while the answer streams.
    { content: ANSWER, chunkDelayMs: 40 },
  ]);

  // Execute it from the workflow list.
  await page.goto('/workflows');
  const card = page.getByRole('article', { name: workflowName });
  await card.getByRole('button', { name: 'Execute' }).click();
  const execute = page.getByRole('dialog', { name: 'Execute Workflow' });
  await execute.getByLabel('Runtime Instructions').fill('A customer asks: when are refunds paid back?');
  await execute.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, 'Workflow Started');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByRole('article', { name: new RegExp(`^${workflowName} execution `) });
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });

  // The run's details: the agent's answer, and the step's search as a Retrieval block.
  await run.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const output = details.getByTestId('agent-output');
  await expect(output.getByTestId('agent-output-content')).toContainText(ANSWER);
  await output.getByRole('button', { name: /Inspect step/ }).click();
  const panel = output.getByTestId('step-inspector-panel');
  await expect(panel.getByTestId('step-answer')).toContainText(ANSWER);
  const call = panel.getByTestId('step-tool-call');
  await expect(call).toHaveCount(1);
  await expect(call).toContainText(searchTool);
  const retrieval = call.getByTestId('retrieval');
  await expect(retrieval.getByTestId('retrieval-query')).toHaveText(`Query: ${QUERY}`);
  await expect(retrieval).toContainText(/\d passages? found/);
  const hits = retrieval.getByTestId('retrieval-hit');
  await expect(hits.first().getByTestId('retrieval-hit-source')).toHaveText('refunds.md');
  await expect(hits.first()).toContainText('passage 1');
  await expect(hits.first().getByTestId('retrieval-hit-score')).toHaveText(/^score 0\.\d\d$|^score 1\.00$/);
  await expect(hits.first()).toContainText('Refunds are paid back to the original card');
  // The passage is longer than an excerpt: its start, cut at a word.
  await expect(hits.first()).toContainText(/…$/);
  // The raw result stays one click away.
  await expect(call.getByTestId('step-tool-result')).toHaveCount(0);
  await retrieval.getByRole('button', { name: 'Raw result' }).click();
  await expect(call.getByTestId('step-tool-result')).toContainText('"source": "refunds.md"');
  await retrieval.getByRole('button', { name: 'Raw result' }).click();

  // The model's next request carried the retrieved passage as the tool's answer.
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(chats).toHaveLength(2);
  const toolMessage = (chats[1].body.messages as { role: string; content: unknown }[]).find(
    (m) => m.role === 'tool',
  );
  expect(JSON.stringify(toolMessage?.content)).toContain('Refunds are paid back to the original card');
  expect(JSON.stringify(toolMessage?.content)).toContain('refunds.md');

  // The step inspector with its retrieval, in each theme and size (once the run's toast has gone).
  await snapScreens(page, retrieval, 'knowledge-run-retrieval');

  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // The agent's playground shows a search the same way: the greeting's reply searches, then answers.
  fake.script([
    { toolCalls: [{ name: searchTool, arguments: { query: 'refund to a bank transfer' } }] },
    { content: 'Hello! I answer from the support knowledge base.', chunkDelayMs: 40 },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/agents');
  await page.getByRole('article', { name: agentName }).getByRole('button', { name: 'Test' }).click();
  const playground = page.getByRole('dialog', { name: agentName });
  const reply = playground.getByTestId('playground-reply').first();
  await expect(reply).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(reply).toContainText('Hello! I answer from the support knowledge base.');
  const playgroundCall = reply.getByTestId('playground-tool-call');
  await expect(playgroundCall).toContainText(searchTool);
  await expect(playgroundCall).toContainText(/\d passages? found/);
  await playgroundCall.getByRole('button', { name: new RegExp(searchTool) }).click();
  const playgroundRetrieval = playgroundCall.getByTestId('retrieval');
  await expect(playgroundRetrieval.getByTestId('retrieval-query')).toHaveText(
    'Query: refund to a bank transfer',
  );
  await expect(
    playgroundRetrieval.getByTestId('retrieval-hit').first().getByTestId('retrieval-hit-source'),
  ).toHaveText('refunds.md');
  await playgroundRetrieval.getByRole('button', { name: 'Raw result' }).click();
  await expect(playgroundCall.getByTestId('playground-tool-result')).toContainText('"query"');
  await snapScreens(page, playgroundRetrieval, 'knowledge-run-playground');
});
