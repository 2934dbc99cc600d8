import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  attachNewTool,
  configureModel,
  createAgent,
  createChainWorkflow,
  runToEnd,
} from '../../testing/app-fixtures';
import { createKnowledgeBase, ingest } from '../../testing/knowledge-fixtures';
import { modelToolName } from '../tools/runtime/tool-runtime';

// A vector store tool on a knowledge base: the agent's model calls search_<name>, gets the closest
// passages with their source, and answers from them; the step's record shows the search.

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url);
  await configureModel(t, bob.token, fake.url);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

/** The model calls (the fake also answers the embeddings of ingestion and search). */
const chatRequests = () => fake.requests.filter((request) => request.path === '/v1/chat/completions');

const REFUNDS = 'Refunds are paid back to the original card within five business days of the return.';

async function agentWithStore(auth: AuthResponse, knowledgeBaseId: string) {
  const agent = await createAgent(t, auth.token, { name: 'Support' });
  const tool = await attachNewTool(t, auth.token, agent.id, {
    name: 'Support Handbook',
    category: 'vector_store',
    config: { knowledgeBaseId },
  });
  const workflowId = await createChainWorkflow(t, auth.token, `Answer ${Math.random()}`, [agent.id]);
  return { agent, toolName: `search_${modelToolName(tool)}`, workflowId };
}

const run = (auth: AuthResponse, workflowId: string) =>
  runToEnd(t, auth.token, workflowId, { question: 'How long do refunds take?' });

describe('a vector store tool on a knowledge base', () => {
  it('gives the model the closest passages with their source, and the step records the search', async () => {
    const base = await createKnowledgeBase(t, ada.token, { name: 'Support Handbook' });
    await ingest(t, ada.token, base.id, { name: 'refunds.md', mediaType: 'text/markdown', content: REFUNDS });
    await ingest(t, ada.token, base.id, {
      name: 'shipping.md',
      mediaType: 'text/markdown',
      content: 'Parcels ship from Lyon on weekdays and arrive within three days in France.',
    });
    const { toolName, workflowId } = await agentWithStore(ada, base.id);
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { query: 'refunds paid back card', topK: 1 } }] },
      { echoToolResult: true },
    ]);

    const execution = await run(ada, workflowId);
    expect(execution.status).toBe('completed');

    // The model was offered the tool, and its second call carried the passage it found.
    const chats = chatRequests();
    const offered = chats[0].body.tools.map((tool: { function: { name: string } }) => tool.function.name);
    expect(offered).toContain(toolName);
    const toolMessage = chats[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    const result = JSON.parse(toolMessage.content);
    expect(result.query).toBe('refunds paid back card');
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({ source: 'refunds.md', passage: 1, text: REFUNDS });
    expect(result.hits[0].score).toBeGreaterThan(0);
    // The answer comes from it.
    expect(execution.output.n1.content).toContain('five business days');

    const call = execution.steps?.[0].record?.toolCalls[0];
    expect(call).toMatchObject({
      name: toolName,
      arguments: { query: 'refunds paid back card', topK: 1 },
      isError: false,
    });
    expect(call?.result).toContain('refunds.md');
  });

  it("cannot search another organization's knowledge base, whatever id its tool names", async () => {
    const adas = await createKnowledgeBase(t, ada.token, { name: 'Private' });
    await ingest(t, ada.token, adas.id, { name: 'secret.md', content: REFUNDS });
    // Bob's tool names Ada's knowledge base: the tool runs for Bob's organization and finds nothing.
    const { toolName, workflowId } = await agentWithStore(bob, adas.id);
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { query: 'refunds' } }] },
      { echoToolResult: true },
    ]);
    const execution = await run(bob, workflowId);
    const call = execution.steps?.[0].record?.toolCalls[0];
    expect(call).toMatchObject({ name: toolName, isError: true });
    expect(call?.result).toContain('Knowledge base not found');
    expect(JSON.stringify(chatRequests())).not.toContain('five business days');
  });
});
