import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import type { TestApp } from '../../testing/test-app';
import { createKnowledgeBase, ingest } from '../../testing/knowledge-fixtures';
import {
  agentWithSearchTool,
  askAboutRefunds,
  chatRequestsOf,
  firstToolCall,
  scriptOneSearch,
  searchSeenByModel,
} from '../../testing/search-tool-runs';

// A vector store tool on a knowledge base: the agent's model calls search_<name>, gets the closest
// passages with their source, and answers from them; the step's record shows the search.

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse, bob: AuthResponse;
beforeAll(async () => ({ t, fake, ada, bob } = await startFakeModelSuite()));
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const REFUNDS = 'Refunds are paid back to the original card within five business days of the return.';

const agentWithStore = (auth: AuthResponse, knowledgeBaseId: string) =>
  agentWithSearchTool(t, auth, { name: 'Support Handbook', config: { knowledgeBaseId } });

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
    scriptOneSearch(fake, toolName, { query: 'refunds paid back card', topK: 1 });

    const execution = await askAboutRefunds(t, ada, workflowId);
    expect(execution.status).toBe('completed');

    // The model was offered the tool, and its second call carried the passage it found.
    const { offered, result } = searchSeenByModel(fake);
    expect(offered).toContain(toolName);
    expect(result.query).toBe('refunds paid back card');
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({ source: 'refunds.md', passage: 1, text: REFUNDS });
    expect(result.hits[0].score).toBeGreaterThan(0);
    // The answer comes from it.
    expect(execution.output.n1.content).toContain('five business days');

    const call = firstToolCall(execution);
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
    scriptOneSearch(fake, toolName, { query: 'refunds' });
    const call = firstToolCall(await askAboutRefunds(t, bob, workflowId));
    expect(call).toMatchObject({ name: toolName, isError: true });
    expect(call?.result).toContain('Knowledge base not found');
    expect(JSON.stringify(chatRequestsOf(fake))).not.toContain('five business days');
  });
});
