import type { AuthResponse, Execution } from '@crewline/contracts';
import { modelToolName } from '../modules/tools/runtime/tool-runtime';
import { attachNewTool, createAgent, createChainWorkflow, runToEnd } from './app-fixtures';
import type { FakeLlmServer } from './fake-llm-server';
import type { TestApp } from './test-app';

/*
 * Runs of an agent with a Vector Store tool, for the suites of its two kinds (on a knowledge base, on
 * a Pinecone index): the fake model is scripted to call the search once and answer with its result.
 */

/** An agent with a new Vector Store tool (`config` says what it searches), alone in a new workflow. */
export async function agentWithSearchTool(
  t: TestApp,
  auth: AuthResponse,
  tool: { name: string; config: Record<string, unknown> },
  agentName = 'Support',
) {
  const agent = await createAgent(t, auth.token, { name: agentName });
  const attached = await attachNewTool(t, auth.token, agent.id, { ...tool, category: 'vector_store' });
  const workflowId = await createChainWorkflow(t, auth.token, `Answer ${Math.random()}`, [agent.id]);
  return { agent, toolName: `search_${modelToolName(attached)}`, workflowId };
}

/** The model calls the tool once with `args`, then answers with what the tool gave it. */
export function scriptOneSearch(fake: FakeLlmServer, toolName: string, args: Record<string, unknown>) {
  fake.script([{ toolCalls: [{ name: toolName, arguments: args }] }, { echoToolResult: true }]);
}

/** Runs the workflow on a question about refunds, to its end. */
export const askAboutRefunds = (t: TestApp, auth: AuthResponse, workflowId: string) =>
  runToEnd(t, auth.token, workflowId, { question: 'How long do refunds take?' });

/** The model calls (the fake also answers the embeddings of ingestion and search). */
export const chatRequestsOf = (fake: FakeLlmServer) =>
  fake.requests.filter((request) => request.path === '/v1/chat/completions');

/** The tools the model was offered on its first call, and the tool's result it got on its second. */
export function searchSeenByModel(fake: FakeLlmServer) {
  const chats = chatRequestsOf(fake);
  const offered = chats[0].body.tools.map((tool: { function: { name: string } }) => tool.function.name);
  const toolMessage = chats[1].body.messages.find((m: { role: string }) => m.role === 'tool');
  return { chats, offered: offered as string[], result: JSON.parse(toolMessage.content) };
}

/** The first tool call of the run's first step, as its record keeps it. */
export const firstToolCall = (execution: Execution) => execution.steps?.[0].record?.toolCalls[0];
