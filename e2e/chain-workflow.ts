// Workflows made through the API for the specs about runs of more than one agent.
import type { APIRequestContext } from '@playwright/test';
import { expect, uniqueName } from './fixtures';

/** One agent step of a chain: its node id, its agent, and the label the canvas and the run show. */
export type ChainStep = { nodeId: string; agentId: string; label: string };

/**
 * An active sequential workflow, Start → each step in turn → End, laid out left to right; its name
 * is `namePrefix` made unique. Answers its id and name.
 */
export async function createChainWorkflow(
  request: APIRequestContext,
  headers: Record<string, string>,
  namePrefix: string,
  steps: ChainStep[],
) {
  const name = uniqueName(namePrefix);
  const ids = ['start', ...steps.map((step) => step.nodeId), 'end'];
  const res = await request.post('/api/workflows', {
    headers,
    data: {
      name,
      processType: 'sequential',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        ...steps.map(({ nodeId, agentId, label }, i) => ({
          id: nodeId,
          type: 'agent',
          agentId,
          position: { x: 300 * (i + 1), y: 0 },
          data: { agentId, label, name: label },
        })),
        { id: 'end', type: 'end', position: { x: 300 * (steps.length + 1), y: 0 }, data: { label: 'End' } },
      ],
      edges: ids.slice(1).map((target, i) => ({ id: `e${i + 1}`, source: ids[i], target })),
    },
  });
  expect(res.status()).toBe(201);
  return { id: (await res.json()).id as string, name };
}
