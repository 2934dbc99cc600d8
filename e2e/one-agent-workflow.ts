// The set-up the run specs share: an organization whose OpenAI connection points at a fake model
// server, one agent, and a Start → agent → End workflow.
import type { APIRequestContext } from '@playwright/test';
import { createAccount, expect, uniqueName } from './fixtures';

export const AGENT = { name: 'Market Analyst', role: 'Competitive analyst' };

/** A new account with one agent and one sequential workflow that calls the model at `fakeUrl`. */
export async function setUpOneAgentWorkflow(
  request: APIRequestContext,
  fakeUrl: string,
  status: 'draft' | 'active' = 'draft',
) {
  const account = await createAccount(request);
  const headers = { authorization: `Bearer ${account.token}` };
  const config = await request.put('/api/tools/configurations/openai_config', {
    headers,
    data: { config: { baseUrl: fakeUrl, apiKey: 'sk-e2e-key-0123456789' }, isActive: true },
  });
  expect(config.ok()).toBe(true);

  const agentRes = await request.post('/api/agents', {
    headers,
    data: { ...AGENT, goal: 'Summarize competitor prices', llmProvider: 'openai', llmModel: 'gpt-4o' },
  });
  expect(agentRes.status()).toBe(201);
  const agent = await agentRes.json();

  const name = uniqueName('Price digest ');
  const workflowRes = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      description: 'Weekly summary of competitor prices',
      processType: 'sequential',
      status,
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        {
          id: 'analyst',
          type: 'agent',
          agentId: agent.id,
          position: { x: 0, y: 150 },
          data: { agentId: agent.id, label: AGENT.name, name: AGENT.name, role: AGENT.role },
        },
        { id: 'end', type: 'end', position: { x: 0, y: 300 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'analyst' },
        { id: 'e2', source: 'analyst', target: 'end' },
      ],
    },
  });
  expect(workflowRes.status()).toBe(201);
  const workflow = await workflowRes.json();
  return { account, headers, workflow: { id: workflow.id as string, name } };
}
