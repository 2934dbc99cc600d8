import type { APIRequestContext, Page } from '@playwright/test';
import {
  createAccount,
  expect,
  inEachSchemeAndSize,
  screenshotDir,
  signInAs,
  snap,
  snapScreens,
  uniqueName,
} from './fixtures';
import { test } from './fake-model';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';

test("a run's details show what each step's model was asked and the tools it called", async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(60_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');

  // The agent gets a file tool; the model is scripted to write a note with it, then answer.
  const agents = await (await request.get('/api/agents', { headers })).json();
  const agent = (agents as { id: string; name: string }[]).find((a) => a.name === AGENT.name)!;
  const toolRes = await request.post('/api/tools', {
    headers,
    data: { name: 'Notes', category: 'file', config: {} },
  });
  expect(toolRes.status()).toBe(201);
  const tool = await toolRes.json();
  // Without asking first: a file write would otherwise wait for approval (the default for new links).
  const link = await request.post(`/api/agents/${agent.id}/tools/${tool.id}`, {
    headers,
    data: { config: {}, approval: 'never' },
  });
  expect(link.status()).toBe(201);
  // The model's name for the tool: its slug and the first 8 hex digits of its id.
  const toolName = `notes_${(tool.id as string).replace(/-/g, '').slice(0, 8)}`;
  fake.script([
    {
      toolCalls: [
        { name: toolName, arguments: { operation: 'write', path: 'prices.txt', content: 'Prices rose 4%' } },
      ],
    },
    { content: 'Prices rose 4% this week; noted in prices.txt.' },
  ]);

  const started = await request.post(`/api/workflows/${workflow.id}/execute`, {
    headers,
    data: { input: { topic: 'prices' }, dynamicInstructions: 'Keep it to one line.', parameters: {} },
  });
  expect(started.status()).toBe(202);
  const { id } = await started.json();
  await expect
    .poll(async () => (await (await request.get(`/api/executions/${id}`, { headers })).json()).status, {
      timeout: 20_000,
    })
    .toBe('completed');

  await signInAs(page, account);
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByRole('article', { name: `${workflow.name} execution ${id.slice(0, 8)}` });
  await run.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const output = details.getByTestId('agent-output');
  await expect(output).toContainText('Prices rose 4% this week; noted in prices.txt.');

  // The step opens to show its prompt, its tool call and the figures of its model call.
  const inspect = output.getByRole('button', { name: /Inspect step/ });
  await expect(inspect).toHaveAttribute('aria-expanded', 'false');
  await inspect.click();
  await expect(inspect).toHaveAttribute('aria-expanded', 'true');
  const panel = output.getByTestId('step-inspector-panel');
  const messages = panel.getByTestId('step-message');
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText('System');
  await expect(messages.nth(0)).toContainText(`You are ${AGENT.name}`);
  await expect(messages.nth(1)).toContainText('User');
  await expect(messages.nth(1)).toContainText('Keep it to one line.');
  const call = panel.getByTestId('step-tool-call');
  await expect(call).toHaveCount(1);
  await expect(call).toContainText(toolName);
  await expect(call).toContainText('"path": "prices.txt"');
  await expect(call).toContainText(/\d+ ms/);
  await expect(call.getByTestId('step-tool-result')).not.toBeEmpty();
  await expect(panel).toContainText('OpenAI · gpt-4o');
  await expect(panel).toContainText('No retries');
  await expect(panel).toContainText('Prompt tokens');
  // gpt-4o has a price: the call's cost stands beside its tokens.
  await expect(panel.getByTestId('step-cost')).toContainText(/^Cost(\$\d|< \$0\.0001)/);

  await snapScreens(page, panel, 'step-inspector');
  // The tool call, scrolled into view, in each theme and size.
  if (screenshotDir) {
    await inEachSchemeAndSize(page, async (scheme, size) => {
      await call.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await snap(page, `step-inspector-tool-${scheme}-${size}`);
    });
  }
});

/** A new account whose model is `fakeUrl`, with a hierarchical workflow: a lead, then two co-workers. */
async function setUpTeam(request: APIRequestContext, fakeUrl: string) {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const config = await request.put('/api/tools/configurations/openai_config', {
    headers,
    data: { config: { baseUrl: fakeUrl, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  expect(config.ok()).toBe(true);
  const ids: string[] = [];
  for (const name of ['Editor in Chief', 'Researcher', 'Copywriter']) {
    const res = await request.post('/api/agents', {
      headers,
      data: { name, role: name, goal: 'Publish a good post', llmProvider: 'openai', llmModel: 'gpt-4o' },
    });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id);
  }
  const nodeIds = ['lead', 'research', 'copy'];
  const name = uniqueName('Newsroom ');
  const res = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      processType: 'hierarchical',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        ...nodeIds.map((id, i) => ({
          id,
          type: 'agent',
          agentId: ids[i],
          position: { x: 0, y: 150 * (i + 1) },
          data: { agentId: ids[i] },
        })),
        { id: 'end', type: 'end', position: { x: 0, y: 600 }, data: { label: 'End' } },
      ],
      edges: ['start', ...nodeIds, 'end'].slice(1).map((target, i, all) => ({
        id: `e${i}`,
        source: i === 0 ? 'start' : all[i - 1],
        target,
      })),
    },
  });
  expect(res.status()).toBe(201);
  return { account, headers, workflow: { id: (await res.json()).id as string, name } };
}

async function openRunDetails(
  page: Page,
  request: APIRequestContext,
  headers: Record<string, string>,
  workflow: { id: string; name: string },
  status: string,
) {
  const started = await request.post(`/api/workflows/${workflow.id}/execute`, { headers, data: {} });
  expect(started.status()).toBe(202);
  const { id } = await started.json();
  await expect
    .poll(async () => (await (await request.get(`/api/executions/${id}`, { headers })).json()).status, {
      timeout: 20_000,
    })
    .toBe(status);
  await page.goto('/workflows');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const run = page.getByRole('article', { name: `${workflow.name} execution ${id.slice(0, 8)}` });
  await run.getByRole('button', { name: 'View Details' }).click();
  return page.getByRole('dialog', { name: 'Execution Details' });
}

test('a hierarchical lead that answered alone says which co-workers it had', async ({
  page,
  request,
  fake,
}) => {
  const { account, headers, workflow } = await setUpTeam(request, fake.url);
  fake.script([{ content: 'I wrote the post myself.' }]);
  await signInAs(page, account);
  const details = await openRunDetails(page, request, headers, workflow, 'completed');
  const output = details.getByTestId('agent-output');
  await expect(output).toHaveCount(1);
  await output.getByRole('button', { name: /Inspect step/ }).click();
  await expect(output.getByTestId('step-team-note')).toHaveText(
    'The lead answered alone: it delegated nothing to its available co-workers (Researcher, Copywriter).',
  );
  await snapScreens(page, output.getByTestId('step-team-note'), 'step-inspector-team');
});

test("a failed step's details show what its model was asked", async ({ page, request, fake }) => {
  const { account, headers, workflow } = await setUpOneAgentWorkflow(request, fake.url, 'active');
  fake.script([{ error: { status: 400, message: 'The prompt is too long for this model' } }]);
  await signInAs(page, account);
  const details = await openRunDetails(page, request, headers, workflow, 'failed');
  const failed = details.getByTestId('failed-step');
  await expect(failed).toContainText(AGENT.name);
  await expect(failed).toContainText('The prompt is too long for this model');
  await failed.getByRole('button', { name: /Inspect step/ }).click();
  await expect(failed.getByTestId('step-message')).toHaveCount(2);
  await expect(failed).toContainText('The model call failed before it answered.');
  await snapScreens(page, failed, 'step-inspector-failed');
});
