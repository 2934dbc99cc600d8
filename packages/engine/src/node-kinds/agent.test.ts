import { describe, expect, it } from 'vitest';
import type { AgentCall } from '../run-workflow';
import { WorkflowRunError } from '../errors';
import { agentKind, nodeAgentId } from './agent';
import { taskOf, validationContext } from './kind-fixtures';

const writer = {
  id: 'a1',
  name: 'Writer',
  role: 'Copywriter',
  goal: 'Write',
  llmProvider: 'openai',
  llmModel: 'gpt-4o',
};
const usage = { promptTokens: 2, completionTokens: 3, totalTokens: 5 };
const executor = agentKind.executor!;
const node = { id: 'B', type: 'agent' as const, data: { agentId: 'a1' } };

describe('the agent kind', () => {
  it('finds a node’s agent in agentId, else in the builder’s data.agentId', () => {
    expect(nodeAgentId({ agentId: 'a1', data: { agentId: 'a2' } })).toBe('a1');
    expect(nodeAgentId({ agentId: null, data: { agentId: 'a2' } })).toBe('a2');
    expect(nodeAgentId({ data: { agentId: '' } })).toBeUndefined();
    expect(nodeAgentId({})).toBeUndefined();
  });

  it('refuses steps without an agent or with a deleted one, named as the canvas names them', () => {
    const exists = (id: string) => id === 'a1';
    const errors = agentKind.validate(
      [
        { id: 'n1', type: 'agent', agentId: 'a1', data: { label: 'Fine' } },
        { id: 'n2', type: 'agent', data: { label: ' Draft ' } },
        { id: 'n3', type: 'agent', agentId: 'gone', data: { name: 'Old writer' } },
        { id: 'n4', type: 'agent' },
      ],
      validationContext({ agentExists: exists }),
    );
    expect(errors).toEqual([
      'Step "Draft" has no agent. Open the workflow and choose an agent.',
      'Step "Old writer" uses an agent that was deleted. Open the workflow and choose another agent.',
      'Step "Untitled" has no agent. Open the workflow and choose an agent.',
    ]);
  });

  it('resolves the step’s agent before it starts, or fails the run when it is gone', () => {
    expect(executor.agentOf!(node, { a1: writer })).toEqual({ agentId: 'a1', agent: writer });
    expect(() => executor.agentOf!(node, {})).toThrow(WorkflowRunError);
    expect(() => executor.agentOf!(node, {})).toThrow(
      'Agent node "B" references an agent that no longer exists',
    );
  });

  it('executes a step as one agent call named by its step, its output from the answer', async () => {
    const calls: AgentCall[] = [];
    const step = { nodeId: 'B#2', baseNodeId: 'B', agentId: 'a1', kind: 'agent' as const };
    const out = await executor.execute(
      taskOf(node, {
        step,
        agent: writer,
        user: 'Draft it',
        delegatedBy: 'A',
        extra: { coworkers: ['Editor'] },
      }),
      {
        async callAgent(call) {
          calls.push(call);
          return { content: 'Drafted', usage, model: 'gpt-4o-mini' };
        },
      },
    );
    expect(calls).toEqual([
      {
        step,
        nodeId: 'B#2',
        agent: writer,
        system: expect.stringContaining('You are Writer, Copywriter.'),
        user: 'Draft it',
        coworkers: ['Editor'],
      },
    ]);
    expect(out).toEqual({
      content: 'Drafted',
      metadata: {
        agentName: 'Writer',
        role: 'Copywriter',
        model: 'gpt-4o-mini',
        baseNodeId: 'B',
        delegatedBy: 'A',
      },
      usage,
    });
  });

  it('names the agent’s own model when the answer does not, and passes the call’s error on', async () => {
    const step = { nodeId: 'B', baseNodeId: 'B', agentId: 'a1', kind: 'agent' as const };
    const out = await executor.execute(taskOf(node, { step, agent: writer, user: 'Go' }), {
      callAgent: async () => ({ content: 'ok', usage }),
    });
    expect(out.metadata).toEqual({
      agentName: 'Writer',
      role: 'Copywriter',
      model: 'gpt-4o',
      baseNodeId: 'B',
    });
    const overloaded = new Error('overloaded');
    await expect(
      executor.execute(taskOf(node, { step, agent: writer, user: 'Go' }), {
        callAgent: () => Promise.reject(overloaded),
      }),
    ).rejects.toBe(overloaded);
  });
});
