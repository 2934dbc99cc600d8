// The set-up the run specs share: an organization whose OpenAI connection points at a fake model
// server, one agent, and a Start → agent → End workflow.
import type { APIRequestContext } from '@playwright/test';
import { connectFakeModel, createAccount, expect, uniqueName } from './fixtures';

export const AGENT = { name: 'Market Analyst', role: 'Competitive analyst' };

/** A Start → agent → End workflow with `agent`; answers its id. */
export async function createAgentWorkflow(
  request: APIRequestContext,
  headers: Record<string, string>,
  agent: { id: string; name: string; role: string },
  {
    name,
    status = 'active',
    description,
    nodeId = 'agent',
  }: { name: string; status?: 'draft' | 'active'; description?: string; nodeId?: string },
): Promise<string> {
  const workflowRes = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      description,
      processType: 'sequential',
      status,
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        {
          id: nodeId,
          type: 'agent',
          agentId: agent.id,
          position: { x: 0, y: 150 },
          data: { agentId: agent.id, label: agent.name, name: agent.name, role: agent.role },
        },
        { id: 'end', type: 'end', position: { x: 0, y: 300 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: nodeId },
        { id: 'e2', source: nodeId, target: 'end' },
      ],
    },
  });
  expect(workflowRes.status()).toBe(201);
  return (await workflowRes.json()).id as string;
}

/** A new account with one agent and one sequential workflow that calls the model at `fakeUrl`. */
export async function setUpOneAgentWorkflow(
  request: APIRequestContext,
  fakeUrl: string,
  status: 'draft' | 'active' = 'draft',
) {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  await connectFakeModel(request, account, fakeUrl);

  const agentRes = await request.post('/api/agents', {
    headers,
    data: { ...AGENT, goal: 'Summarize competitor prices', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(agentRes.status()).toBe(201);
  const agent = await agentRes.json();

  const name = uniqueName('Price digest ');
  const id = await createAgentWorkflow(
    request,
    headers,
    { ...AGENT, id: agent.id },
    {
      name,
      status,
      description: 'Weekly summary of competitor prices',
      nodeId: 'analyst',
    },
  );
  return { account, headers, workflow: { id, name } };
}
