import { WorkflowRunError } from '@crewline/engine';
import { describe, expect, it, vi } from 'vitest';
import { agentNamed } from '../../testing/runner-fakes';
import { createRunDefinitions, type ClaimedRun } from './run-definitions';

const writer = agentNamed('Writer');
const workflow = (name: string) => ({
  name,
  processType: 'sequential' as const,
  nodes: [{ id: 'n1', type: 'agent' as const, agentId: writer.id, data: { label: 'Draft' } }],
  edges: [],
});

function definitions() {
  const version = vi.fn(async (_org: string, _id: string, v: number) => workflow(`Version ${v}`));
  const get = vi.fn(async () => workflow('Working copy'));
  const forRun = vi.fn(() => ({
    agents: new Map([[writer.id, writer]]),
    ask: vi.fn(),
    connection: vi.fn(),
  }));
  const made = createRunDefinitions({
    workflows: { version, get } as never,
    agentModel: {
      runColumns: () => ({ agents: 'agents' as never, configurations: 'c' as never }),
      forRun,
    } as never,
  });
  return { made, version, get, forRun };
}

const run = (workflowVersion: number | null) =>
  ({
    organizationId: 'org-1',
    workflowId: 'flow-1',
    workflowVersion,
    extra: { agents: [], configurations: [] },
  }) as unknown as ClaimedRun;

describe("a claimed run's definition", () => {
  it('is the version it is pinned to, read once per process, with the agents read with the claim', async () => {
    const d = definitions();
    const first = await d.made.of(run(3));
    await d.made.of(run(3));
    expect(first.name).toBe('Version 3');
    expect(first.definition.nodes).toEqual(workflow('').nodes);
    expect(first.definition.agents).toEqual({ [writer.id]: writer });
    expect(first.agents.get(writer.id)).toBe(writer);
    expect(d.version).toHaveBeenCalledTimes(1);
    expect(d.version).toHaveBeenCalledWith('org-1', 'flow-1', 3);
    expect(d.forRun).toHaveBeenCalledWith('org-1', { agents: [], configurations: [] });
    expect(d.get).not.toHaveBeenCalled();
  });

  it('is the working copy for a run from before versions existed', async () => {
    const d = definitions();
    expect((await d.made.of(run(null))).name).toBe('Working copy');
  });

  it('fails the run when its workflow no longer exists', async () => {
    const d = definitions();
    d.version.mockResolvedValueOnce(undefined as never);
    const missing = d.made.of(run(4));
    await expect(missing).rejects.toBeInstanceOf(WorkflowRunError);
    await expect(missing).rejects.toThrow('The workflow of this run no longer exists');
  });
});
