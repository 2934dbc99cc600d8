import type { Page } from '@playwright/test';
import { expect, expectToast, snapScreens, uniqueName } from './fixtures';
import { signedInOnFakeModel, test } from './fake-model';
import { createAgentWorkflow } from './one-agent-workflow';

// Agent memory end to end: an agent created with Memory on keeps the facts its model picks after a
// run, lists them on its Advanced tab (searchable, each linked to its run), is given the relevant one
// in its next run's system prompt, and forgets them one at a time or all at once. The model is a fake
// server of this test's own (its embeddings put texts sharing words close together).

const AGENT = { name: 'Billing Concierge', role: 'Accounts assistant' };
const NAME_FACT = "The customer's name is Grace Hopper";
const INVOICE_FACT = 'Grace prefers invoices by email';
const LATER_FACT = "Grace Hopper's March invoices were emailed";

/** Executes the workflow from its card with these instructions and waits for the run to complete. */
async function execute(page: Page, workflowName: string, instructions: string, runsBefore: number) {
  await page.goto('/workflows');
  await page.getByRole('article', { name: workflowName }).getByRole('button', { name: 'Execute' }).click();
  const dialog = page.getByRole('dialog', { name: 'Execute Workflow' });
  await dialog.getByLabel('Runtime Instructions').fill(instructions);
  await dialog.getByRole('button', { name: 'Execute' }).click();
  await expectToast(page, 'Workflow Started');
  await page.getByRole('tab', { name: 'Executions' }).click();
  const runs = page.getByRole('article', { name: new RegExp(`^${workflowName} execution `) });
  await expect(runs).toHaveCount(runsBefore + 1);
  // The list is newest first.
  const run = runs.first();
  await expect(run.getByTestId('execution-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });
  return run;
}

async function openAdvanced(page: Page, agentId: string) {
  await page.goto(`/agents/edit/${agentId}`);
  await page.getByRole('tab', { name: 'Advanced' }).click();
  return page.getByRole('region', { name: 'Memories' });
}

test('an agent remembers facts from a run, uses them in the next one, and forgets them', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(150_000);

  const { headers } = await signedInOnFakeModel(page, request, fake);

  // Create the agent with Memory on, in the create dialog's Advanced tab.
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create New Agent' });
  await create.getByLabel('Name').fill(AGENT.name);
  await create.getByLabel('Role').fill(AGENT.role);
  await create.getByLabel('Goal').fill('Answer billing questions and remember what customers prefer');
  await create.getByRole('tab', { name: 'Advanced' }).click();
  const memorySwitch = create.getByRole('switch', { name: 'Memory' });
  await expect(memorySwitch).toHaveAttribute('aria-checked', 'false');
  await expect(create.getByText('Remember facts from each run and use them in later runs.')).toBeVisible();
  await expect(create.getByLabel('Embedding model')).toHaveCount(0);
  await memorySwitch.click();
  await expect(memorySwitch).toHaveAttribute('aria-checked', 'true');
  await expect(create.getByRole('combobox', { name: 'Embedding connection' })).toHaveText('OpenAI');
  await expect(create.getByLabel('Embedding model')).toHaveValue('text-embedding-3-small');
  await snapScreens(page, create.getByRole('region', { name: 'Memory' }), 'memory-ui-create');
  await create.getByRole('button', { name: 'Create Agent' }).click();
  await expectToast(page, 'Agent Created');
  await expect(page.getByRole('article', { name: AGENT.name })).toBeVisible();

  const agents = (await (await request.get('/api/agents', { headers })).json()) as {
    id: string;
    name: string;
    memory: Record<string, unknown>;
  }[];
  const agent = agents.find((a) => a.name === AGENT.name)!;
  expect(agent.memory).toEqual({
    enabled: true,
    connection: 'openai',
    model: 'text-embedding-3-small',
  });

  // Before any run: the Advanced tab says how memories come.
  let memories = await openAdvanced(page, agent.id);
  await expect(memories.getByText('No memories yet')).toBeVisible();
  await expect(
    memories.getByText('Run the agent in a workflow: it keeps the facts worth remembering.'),
  ).toBeVisible();

  // A workflow with the agent (the builder has its own specs).
  const workflowName = uniqueName('Invoice follow-up ');
  await createAgentWorkflow(request, headers, { ...AGENT, id: agent.id }, { name: workflowName });

  // The first run: the step's answer, then the facts its model picks from it.
  fake.script([
    { content: 'Welcome, Grace Hopper. I will send your invoices by email from now on.' },
    { content: `- ${NAME_FACT}\n- ${INVOICE_FACT}` },
  ]);
  await execute(page, workflowName, 'A new customer, Grace Hopper, asks for her invoices by email.', 0);

  // Both facts are listed on the agent's Advanced tab, each from that run.
  memories = await openAdvanced(page, agent.id);
  const rows = memories.getByTestId('agent-memory');
  await expect(rows).toHaveCount(2);
  await expect(memories.getByTestId('agent-memories-total')).toHaveText('2');
  await expect(rows.filter({ hasText: NAME_FACT })).toHaveCount(1);
  await expect(rows.filter({ hasText: INVOICE_FACT })).toHaveCount(1);
  for (const row of await rows.all()) {
    await expect(row.getByRole('link', { name: 'From run' })).toBeVisible();
    await expect(row.locator('time')).toHaveAttribute('datetime', /^\d{4}-/);
  }
  await snapScreens(page, memories, 'memory-ui-memories');

  // Search: only the invoices fact (the server filters; the total stays).
  await memories.getByRole('searchbox', { name: 'Search memories' }).fill('invoices');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(INVOICE_FACT);
  await expect(memories.getByText('1 memory matches.')).toBeVisible();
  await expect(memories.getByTestId('agent-memories-total')).toHaveText('2');
  await memories.getByRole('searchbox', { name: 'Search memories' }).fill('nothing like this');
  await expect(memories.getByText('No matching memories')).toBeVisible();
  await memories.getByRole('searchbox', { name: 'Search memories' }).fill('');
  await expect(rows).toHaveCount(2);

  // "From run" opens that run's details, whose log says what the agent remembered.
  await rows.filter({ hasText: INVOICE_FACT }).getByRole('link', { name: 'From run' }).click();
  await expect(page).toHaveURL(/\/workflows\?tab=executions&run=/);
  const firstDetails = page.getByRole('dialog', { name: 'Execution Details' });
  await expect(firstDetails.getByTestId('agent-output')).toContainText('I will send your invoices by email');
  await firstDetails.getByRole('tab', { name: /Logs/ }).click();
  await expect(firstDetails.getByRole('list', { name: 'Execution logs' })).toContainText(
    `${AGENT.name} remembered 2 new facts`,
  );
  await page.keyboard.press('Escape');
  await expect(firstDetails).toBeHidden();
  await expect(page).not.toHaveURL(/run=/);

  // The second run is about Grace's invoices: the agent is given what it remembers about them.
  fake.script([
    { content: 'Done: the March invoices went to Grace by email, as she prefers.' },
    { content: `- ${LATER_FACT}` },
  ]);
  const second = await execute(
    page,
    workflowName,
    'Grace Hopper asks again for her invoices: send Grace her March invoices the way she prefers invoices.',
    1,
  );
  await second.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Execution Details' });
  const output = details.getByTestId('agent-output');
  await expect(output).toContainText('the March invoices went to Grace by email');
  await output.getByRole('button', { name: /Inspect step/ }).click();
  const system = output.getByTestId('step-inspector-panel').getByTestId('step-message').first();
  await expect(system).toContainText('System');
  await expect(system).toContainText(INVOICE_FACT);
  await details.getByRole('tab', { name: /Logs/ }).click();
  await expect(details.getByRole('list', { name: 'Execution logs' })).toContainText(
    new RegExp(`${AGENT.name} recalled \\d memor`),
  );
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // Forget one: the list and its total follow.
  memories = await openAdvanced(page, agent.id);
  await expect(rows).toHaveCount(3);
  await expect(memories.getByTestId('agent-memories-total')).toHaveText('3');
  await rows.filter({ hasText: NAME_FACT }).getByRole('button', { name: 'Forget this memory' }).click();
  await expectToast(page, 'Memory Forgotten');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: NAME_FACT })).toHaveCount(0);
  await expect(memories.getByTestId('agent-memories-total')).toHaveText('2');

  // Forget all, after a confirmation: the empty state.
  await memories.getByRole('button', { name: 'Forget all' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Forget all memories?' });
  await expect(confirm).toContainText(`Forget all 2 memories of ${AGENT.name}? This cannot be undone.`);
  await confirm.getByRole('button', { name: 'Forget all' }).click();
  await expectToast(page, 'Memories Forgotten');
  await expect(confirm).toBeHidden();
  await expect(memories.getByText('No memories yet')).toBeVisible();
  await expect(memories.getByTestId('agent-memories-total')).toHaveText('0');
  await snapScreens(page, memories, 'memory-ui-empty');

  // The server agrees, after a reload.
  await page.reload();
  await page.getByRole('tab', { name: 'Advanced' }).click();
  await expect(page.getByRole('region', { name: 'Memories' }).getByText('No memories yet')).toBeVisible();

  // Memory off (saved): the agent keeps its settings, and the empty list says how to start again.
  await page.getByRole('switch', { name: 'Memory' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Agent Updated');
  await expect(
    page
      .getByRole('region', { name: 'Memories' })
      .getByText('Turn Memory on and run the agent in a workflow.'),
  ).toBeVisible();
  const saved = (await (await request.get(`/api/agents/${agent.id}`, { headers })).json()) as {
    memory: Record<string, unknown>;
  };
  expect(saved.memory).toEqual({
    enabled: false,
    connection: 'openai',
    model: 'text-embedding-3-small',
  });
});
