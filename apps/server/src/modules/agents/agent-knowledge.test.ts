import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentKnowledgeBases, AuthResponse, Tool } from '@crewline/contracts';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import type { TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow, runToEnd } from '../../testing/app-fixtures';
import { createKnowledgeBase, ingest } from '../../testing/knowledge-fixtures';
import { modelToolName } from '../tools/runtime/tool-runtime';

// Knowledge on the agent: picking a knowledge base links the agent to a vector-store tool on it (made
// the first time, named and described as the base), and the agent's runs search it.

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse, bob: AuthResponse;
beforeAll(async () => ({ t, fake, ada, bob } = await startFakeModelSuite()));
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const REFUNDS = 'Refunds are paid back to the original card within five business days of the return.';
const chatRequests = () => fake.requests.filter((request) => request.path === '/v1/chat/completions');
type OfferedTool = { function: { name: string; description: string } };

async function pick(auth: AuthResponse, agentId: string, knowledgeBaseIds: unknown) {
  return t.request({
    method: 'PUT',
    url: `/api/agents/${agentId}/knowledge-bases`,
    token: auth.token,
    payload: { knowledgeBaseIds },
  });
}
async function picked(auth: AuthResponse, agentId: string) {
  const res = await t.request({
    method: 'GET',
    url: `/api/agents/${agentId}/knowledge-bases`,
    token: auth.token,
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as AgentKnowledgeBases).knowledgeBases;
}
async function toolsOf(auth: AuthResponse) {
  const res = await t.request({ method: 'GET', url: '/api/tools', token: auth.token });
  return res.json() as Tool[];
}

describe('knowledge picked on the agent', () => {
  it("is searched by the agent's runs, and the model is told the base's name and description", async () => {
    const base = await createKnowledgeBase(t, ada.token, {
      name: 'Product FAQ',
      description: 'Refunds, shipping and returns.',
    });
    await ingest(t, ada.token, base.id, { name: 'refunds.md', mediaType: 'text/markdown', content: REFUNDS });
    const agent = await createAgent(t, ada.token, { name: 'Support' });

    const res = await pick(ada, agent.id, [base.id]);
    expect(res.statusCode, res.body).toBe(200);
    const [linked] = (res.json() as AgentKnowledgeBases).knowledgeBases;
    expect(linked).toMatchObject({
      id: base.id,
      name: 'Product FAQ',
      description: 'Refunds, shipping and returns.',
    });
    expect(await picked(ada, agent.id)).toEqual([linked]);
    // The tool behind it carries the base's name and description.
    const tool = (await toolsOf(ada)).find((candidate) => candidate.id === linked.toolId);
    expect(tool).toMatchObject({
      name: 'Product FAQ',
      description: 'Refunds, shipping and returns.',
      category: 'vector_store',
      config: { knowledgeBaseId: base.id },
    });

    const workflowId = await createChainWorkflow(t, ada.token, 'FAQ answers', [agent.id]);
    const toolName = `search_${modelToolName({ name: 'Product FAQ', id: linked.toolId })}`;
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { query: 'refund card days', topK: 1 } }] },
      { echoToolResult: true },
    ]);
    const execution = await runToEnd(t, ada.token, workflowId, { question: 'How long do refunds take?' });
    expect(execution.status).toBe('completed');
    const offered = chatRequests()[0].body.tools as OfferedTool[];
    const search = offered.find((candidate) => candidate.function.name === toolName);
    expect(search?.function.description).toMatch(
      /^Search the knowledge base 'Product FAQ': Refunds, shipping and returns\. /,
    );
    expect(execution.output.n1.content).toContain('five business days');
    expect(execution.steps?.[0].record?.toolCalls[0]).toMatchObject({ name: toolName, isError: false });
  });

  it('unlinks what is unpicked, and reuses the tool when the base is picked again', async () => {
    const faq = await createKnowledgeBase(t, ada.token, { name: 'Returns' });
    const other = await createKnowledgeBase(t, ada.token, { name: 'Pricing' });
    const agent = await createAgent(t, ada.token, { name: 'Picker' });
    const both = (await (
      await pick(ada, agent.id, [faq.id, other.id, faq.id])
    ).json()) as AgentKnowledgeBases;
    expect(both.knowledgeBases.map((kb) => kb.name)).toEqual(['Returns', 'Pricing']);
    const toolCount = (await toolsOf(ada)).length;

    expect((await pick(ada, agent.id, [other.id])).statusCode).toBe(200);
    expect((await picked(ada, agent.id)).map((kb) => kb.name)).toEqual(['Pricing']);
    const again = await pick(ada, agent.id, [other.id, faq.id]);
    expect((again.json() as AgentKnowledgeBases).knowledgeBases.map((kb) => kb.toolId)).toEqual(
      [other.id, faq.id].map((id) => both.knowledgeBases.find((kb) => kb.id === id)?.toolId),
    );
    // Unpicking removed links only: no tool was deleted, and picking again made none.
    expect((await toolsOf(ada)).length).toBe(toolCount);
    // A second agent picking the same base shares its tool.
    const second = await createAgent(t, ada.token, { name: 'Second' });
    const shared = (await (await pick(ada, second.id, [faq.id])).json()) as AgentKnowledgeBases;
    expect(shared.knowledgeBases[0].toolId).toBe(both.knowledgeBases[0].toolId);
    expect((await pick(ada, agent.id, [])).statusCode).toBe(200);
    expect(await picked(ada, agent.id)).toEqual([]);
  });

  it("refuses another organization's base, an unknown one, another's agent, and a bad body", async () => {
    const adas = await createKnowledgeBase(t, ada.token, { name: 'Private' });
    const bobsAgent = await createAgent(t, bob.token, { name: 'Bob agent' });
    const bobTools = (await toolsOf(bob)).length;

    const foreign = await pick(bob, bobsAgent.id, [adas.id]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Knowledge base not found');
    expect((await pick(bob, bobsAgent.id, ['not-an-id'])).json().message).toBe('Knowledge base not found');
    expect((await toolsOf(bob)).length).toBe(bobTools);
    expect(await picked(bob, bobsAgent.id)).toEqual([]);

    const adasAgent = await createAgent(t, ada.token, { name: 'Ada agent' });
    const notTheirs = await pick(bob, adasAgent.id, []);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().message).toBe('Agent not found');

    const bad = await pick(ada, adasAgent.id, 'x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('knowledgeBaseIds must be a list of knowledge base ids');
  });
});
