import type { APIRequestContext } from '@playwright/test';
import { expect, expectToast, signInAs, snapScreens, uniqueName } from './fixtures';
import { accountOnFakeModel, signedInOnFakeModel, test } from './fake-model';

// Knowledge on the agent: a knowledge base picked in the agent's Knowledge section is searched by the
// agent (its playground here), and the model is told the base's name and description. The Model
// field of Local and Custom lists what their server reports, or says why it cannot. The model is a
// fake server of this test's own, scripted to call the search.

const FAQ = 'Refunds are paid back to the original card within five business days of the return.';
const ANSWER = 'Refunds reach your card within five business days (source: refunds.txt).';

async function readyKnowledgeBase(request: APIRequestContext, headers: Record<string, string>, name: string) {
  const res = await request.post('/api/knowledge-bases', {
    headers,
    data: { name, description: 'Refunds, shipping and returns' },
  });
  expect(res.status()).toBe(201);
  const base = (await res.json()) as { id: string };
  const doc = await request.post(`/api/knowledge-bases/${base.id}/documents`, {
    headers,
    data: { name: 'refunds.txt', mediaType: 'text/plain', content: FAQ },
  });
  expect(doc.status()).toBe(201);
  await expect
    .poll(
      async () => {
        const docs = (await (
          await request.get(`/api/knowledge-bases/${base.id}/documents`, { headers })
        ).json()) as { status: string }[];
        return docs[0]?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('ready');
  return base;
}

test('a knowledge base picked on the agent is searched in its playground', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(120_000);
  const { headers } = await signedInOnFakeModel(page, request, fake);

  const baseName = uniqueName('Product FAQ ');
  const base = await readyKnowledgeBase(request, headers, baseName);
  const agentName = 'FAQ Agent';
  const agentRes = await request.post('/api/agents', {
    headers,
    data: { name: agentName, role: 'Support', goal: 'Answer from the FAQ', llmModel: 'gpt-4o' },
  });
  expect(agentRes.status()).toBe(201);
  const agent = (await agentRes.json()) as { id: string };

  // Pick the base in the agent's Knowledge section: it is saved at once, as a linked search tool.
  await page.goto(`/agents/edit/${agent.id}`);
  await page.getByRole('tab', { name: 'Tools' }).click();
  const knowledge = page.getByRole('region', { name: 'Knowledge' });
  const box = knowledge.getByRole('checkbox', { name: baseName });
  await expect(box).not.toBeChecked();
  await box.click();
  await expect(box).toBeChecked();
  await expect(page.getByTestId('agent-tool-link')).toHaveCount(1);
  await expect(page.getByTestId('agent-tool-link')).toContainText(baseName);
  const linked = (await (
    await request.get(`/api/agents/${agent.id}/knowledge-bases`, { headers })
  ).json()) as {
    knowledgeBases: { id: string; toolId: string }[];
  };
  expect(linked.knowledgeBases.map((kb) => kb.id)).toEqual([base.id]);
  await snapScreens(page, knowledge, 'agent-knowledge-section');

  // The tool card names its knowledge base.
  await page.goto('/tools');
  const card = page.getByRole('article', { name: baseName });
  await expect(card).toContainText(`Knowledge base: ${baseName}`);
  await expect(card).not.toContainText('No provider');

  // The playground: the model searches the base, then answers from it.
  const slug = baseName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  const searchTool = `search_${slug}_${linked.knowledgeBases[0].toolId.replace(/-/g, '').slice(0, 8)}`;
  fake.script([
    { toolCalls: [{ name: searchTool, arguments: { query: 'refunds paid back card', topK: 1 } }] },
    { content: ANSWER, chunkDelayMs: 20 },
  ]);
  await page.goto('/agents');
  await page.getByRole('article', { name: agentName }).getByRole('button', { name: 'Test' }).click();
  const playground = page.getByRole('dialog', { name: agentName });
  const reply = playground.getByTestId('playground-reply').first();
  await expect(reply).toHaveAttribute('data-status', 'done', { timeout: 15_000 });
  await expect(reply).toContainText(ANSWER);
  await expect(reply.getByTestId('playground-tool-call')).toContainText(searchTool);

  // The model was told the base's name and description, and got the passage it found.
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  const offered = (chats[0].body.tools as { function: { name: string; description: string } }[]).find(
    (tool) => tool.function.name === searchTool,
  );
  expect(offered?.function.description).toContain(
    `Search the knowledge base '${baseName}': Refunds, shipping and returns.`,
  );
  const toolMessage = (chats[1].body.messages as { role: string; content: unknown }[]).find(
    (m) => m.role === 'tool',
  );
  expect(JSON.stringify(toolMessage?.content)).toContain('five business days');
});

test('the create dialog picks knowledge, and lists a custom server’s models', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  const { account, headers } = await accountOnFakeModel(request, fake);
  fake.setModels(['qwen2.5:7b', 'llama3.2:3b']);
  const custom = await request.put('/api/tools/configurations/custom_config', {
    headers,
    data: { config: { baseUrl: fake.url }, isActive: true },
  });
  expect(custom.ok()).toBe(true);
  await signInAs(page, account);
  const baseName = uniqueName('Handbook ');
  const base = await readyKnowledgeBase(request, headers, baseName);

  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create New Agent' });
  await create.getByLabel('Name').fill('Handbook Agent');
  await create.getByLabel('Role').fill('Support');
  await create.getByLabel('Goal').fill('Answer from the handbook');

  // Custom: the models its server reports, to pick from.
  await create.getByRole('tab', { name: 'LLM Settings' }).click();
  await create.getByLabel('Provider').click();
  await page.getByRole('option', { name: /Custom/ }).click();
  const model = create.getByRole('combobox', { name: 'Model' });
  await expect(model).toHaveText('llama3.2:3b');
  await model.click();
  await expect(page.getByRole('option')).toHaveText(['llama3.2:3b', 'qwen2.5:7b']);
  await page.getByRole('option', { name: 'qwen2.5:7b' }).click();
  await snapScreens(page, create, 'agent-model-list-custom');

  // Local, whose server is not there: a name to type, and why.
  await create.getByLabel('Provider').click();
  await page.getByRole('option', { name: /Local/ }).click();
  await expect(create.getByText(/^Could not list models: /)).toBeVisible();
  // A text input with the suggestions (a datalist), so a combobox to assistive technology too.
  await create.getByLabel('Model').fill('llama3.1:8b');
  await snapScreens(page, create, 'agent-model-list-local-error');
  await create.getByLabel('Provider').click();
  await page.getByRole('option', { name: /Custom/ }).click();
  await create.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: 'qwen2.5:7b' }).click();

  // Knowledge, picked before the agent exists.
  await create.getByRole('tab', { name: 'Tools' }).click();
  await create.getByRole('region', { name: 'Knowledge' }).getByRole('checkbox', { name: baseName }).click();
  await snapScreens(page, create, 'agent-knowledge-create');
  await create.getByRole('button', { name: 'Create Agent' }).click();
  await expectToast(page, 'Agent Created');

  const agents = (await (await request.get('/api/agents', { headers })).json()) as {
    id: string;
    name: string;
    llmProvider: string;
    llmModel: string;
  }[];
  const agent = agents.find((a) => a.name === 'Handbook Agent')!;
  expect(agent).toMatchObject({ llmProvider: 'custom', llmModel: 'qwen2.5:7b' });
  await expect
    .poll(async () => {
      const res = await request.get(`/api/agents/${agent.id}/knowledge-bases`, { headers });
      return ((await res.json()) as { knowledgeBases: { id: string }[] }).knowledgeBases.map((kb) => kb.id);
    })
    .toEqual([base.id]);
});
