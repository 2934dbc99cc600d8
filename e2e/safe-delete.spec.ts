import {
  connectFakeModel,
  createAccount,
  expect,
  expectToast,
  signInAs,
  snapScreens,
  test,
} from './fixtures';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

// Safe deletes (docs/product-rules.md): the delete dialog names the workflows an agent is in; after the
// delete those workflows stay active but need attention, on their card, on the canvas and on Execute.

const deletedMessage = `Step "${AGENT.name}" uses an agent that was deleted. Open the workflow and choose another agent.`;

test('delete an agent a workflow uses: the dialog lists it, then the workflow needs attention', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { account, headers, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
    'active',
  );
  await signInAs(page, account);

  // The agents page: Delete Agent lists the workflow (with its status) and still deletes on confirm.
  await page.goto('/agents');
  await page
    .getByRole('article', { name: AGENT.name })
    .getByRole('button', { name: 'Agent actions' })
    .click();
  await page.getByRole('menuitem', { name: 'Delete Agent' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(
    `Are you sure you want to delete "${AGENT.name}"? This action cannot be undone.`,
  );
  const usage = confirm.getByTestId('delete-usage');
  await expect(usage).toContainText(`Used by 1 workflow: ${workflow.name} (Active).`);
  await snapScreens(page, confirm, 'safe-delete-dialog', { waitForToasts: false });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Agent Deleted');
  await expect(page.getByRole('article', { name: AGENT.name })).toHaveCount(0);

  // The workflows page: still Active, with the badge saying it needs attention.
  await page.goto('/workflows');
  const card = page.getByRole('article', { name: workflow.name });
  await expect(card.getByTestId('workflow-status')).toHaveText('Active');
  const badge = card.getByTestId('workflow-needs-attention');
  await expect(badge).toHaveText('Needs attention');
  await expect(badge).toHaveAttribute('title', deletedMessage);
  await expect(card).toContainText('Uses a deleted agent');
  await snapScreens(page, card, 'safe-delete-card');

  // Execute from the card: refused, in words (the node's name, never an id).
  await card.getByRole('button', { name: 'Execute' }).click();
  const execute = page.getByRole('dialog', { name: 'Execute Workflow' });
  await execute.getByRole('button', { name: 'Execute' }).click();
  // The dialog stays open on a refusal, and a modal dialog hides the rest of the page from roles.
  const toast = page.locator('[data-slot="toast"]');
  await expect(toast).toContainText(deletedMessage);
  await expect(toast).not.toContainText('references non-existent');
  await execute.getByRole('button', { name: 'Cancel' }).click();

  // The builder: the step is outlined and says its agent was deleted.
  await page.goto(`/workflows/edit/${workflow.id}`);
  const node = page.getByTestId('node-analyst');
  await expect(node.getByTestId('node-agent-deleted')).toHaveText('This agent was deleted');
  await expect(node).toHaveAttribute('data-agent-deleted', 'true');
  await snapScreens(page, node, 'safe-delete-node');

  // The API says the same.
  const listed = (await (await request.get('/api/workflows', { headers })).json()) as {
    id: string;
    needsAttention: boolean;
    problems: string[];
  }[];
  expect(listed.find((w) => w.id === workflow.id)).toMatchObject({
    needsAttention: true,
    problems: [deletedMessage],
  });
});

test('deleting a knowledge base or a tool lists the tools and agents that search or use it', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  await connectFakeModel(request, account, `http://127.0.0.1:${fakeLlmPort}/v1`);
  const post = async (url: string, data: object) => {
    const res = await request.post(url, { headers, data });
    expect(res.status()).toBe(201);
    return (await res.json()) as { id: string; name: string };
  };
  const base = await post('/api/knowledge-bases', { name: 'Support Handbook' });
  const agent = await post('/api/agents', { name: 'Support Desk', role: 'Support', goal: 'Answer' });
  const tool = await post('/api/tools', {
    name: 'Handbook search',
    category: 'vector_store',
    config: { knowledgeBaseId: base.id },
  });
  await post(`/api/agents/${agent.id}/tools/${tool.id}`, { config: {} });
  await signInAs(page, account);

  await page.goto('/knowledge');
  await page.getByRole('button', { name: 'Actions for Support Handbook' }).click();
  await page.getByRole('menuitem', { name: 'Delete Knowledge Base' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByTestId('delete-usage')).toContainText(
    'Searched by 1 tool: Handbook search.Used by 1 agent: Support Desk.',
  );
  await snapScreens(page, confirm, 'safe-delete-knowledge-dialog', { waitForToasts: false });
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/tools');
  await page.getByRole('button', { name: 'Delete Handbook search' }).click();
  await expect(page.getByRole('alertdialog').getByTestId('delete-usage')).toHaveText(
    'Used by 1 agent: Support Desk.',
  );
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Tool deleted');
});
