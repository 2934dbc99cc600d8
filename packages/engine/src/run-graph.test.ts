import { describe, expect, it } from 'vitest';
import type { AgentCall, EngineEvent, RunDefinition, RunPorts } from './run-workflow';
import { runWorkflow } from './run-workflow';

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const agent = (id: string, name: string, outputSchema?: Record<string, unknown>) => ({
  id,
  name,
  role: `${name} role`,
  goal: `${name} goal`,
  llmProvider: 'openai',
  llmModel: 'gpt-4o',
  ...(outputSchema ? { outputSchema } : {}),
});
const categorySchema = {
  type: 'object',
  properties: { category: { type: 'string', enum: ['billing', 'bug', 'other'] }, amount: { type: 'number' } },
  required: ['category'],
};
const agents = {
  classifier: agent('classifier', 'Classifier', categorySchema),
  billing: agent('billing', 'Billing specialist'),
  bug: agent('bug', 'Bug specialist'),
  other: agent('other', 'Generalist'),
  writer: agent('writer', 'Writer'),
};

type Node = RunDefinition['nodes'][number];
const step = (id: string, agentId: string, data: Record<string, unknown> = {}): Node => ({
  id,
  type: 'agent',
  agentId,
  data,
});
const edge = (source: string, target: string, sourceHandle?: string) => ({ source, target, sourceHandle });

/** Support triage: classify → route → one specialist → merge → reply. */
function triage(merge: 'all' | 'first' = 'all'): RunDefinition {
  return {
    processType: 'sequential',
    agents,
    nodes: [
      { id: 'start', type: 'start' },
      step('classify', 'classifier'),
      {
        id: 'route',
        type: 'condition',
        data: {
          label: 'Route',
          branches: [
            { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
            { id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' },
          ],
        },
      },
      step('billing', 'billing'),
      step('bug', 'bug'),
      step('other', 'other'),
      { id: 'join', type: 'merge', data: { mode: merge } },
      step('reply', 'writer'),
      { id: 'note', type: 'note', data: { text: 'Triage' } },
      { id: 'end', type: 'end' },
    ],
    edges: [
      edge('start', 'classify'),
      edge('classify', 'route'),
      edge('route', 'billing', 'billing'),
      edge('route', 'bug', 'bug'),
      edge('route', 'other', 'else'),
      edge('billing', 'join'),
      edge('bug', 'join'),
      edge('other', 'join'),
      edge('join', 'reply'),
      edge('reply', 'end'),
    ],
  };
}

/** A model that answers each node with a fixed text, and each schema'd call with `data`. */
function model(data: Record<string, unknown> = {}, answers: Record<string, string> = {}) {
  const calls: AgentCall[] = [];
  const events: EngineEvent[] = [];
  let clock = 0;
  const ports: RunPorts = {
    now: () => (clock += 5),
    async callAgent(call) {
      calls.push(call);
      const content = answers[call.nodeId] ?? `${call.agent.name} answers`;
      return call.outputSchema
        ? { content: JSON.stringify(data[call.nodeId]), data: data[call.nodeId], usage }
        : { content, usage };
    },
    onEvent: (e) => {
      events.push(e);
    },
  };
  return { ports, calls, events, asked: () => calls.map((c) => c.nodeId) };
}

describe('a sequential run that decides', () => {
  it('runs only the chosen branch: the others are skipped, never sent to a model, and the merge runs once', async () => {
    const m = model({ classify: { category: 'bug' } });
    const run = await runWorkflow(triage(), { input: 'The app crashes' }, m.ports);

    expect(m.asked()).toEqual(['classify', 'bug', 'reply']);
    expect(m.calls[0].outputSchema).toEqual(categorySchema);
    expect(run.output.classify).toMatchObject({
      kind: 'agent',
      status: 'completed',
      data: { category: 'bug' },
    });
    expect(run.output.route).toMatchObject({
      kind: 'condition',
      status: 'completed',
      data: { branch: 'bug' },
    });
    for (const skipped of ['billing', 'other'])
      expect(run.output[skipped]).toMatchObject({ kind: 'agent', status: 'skipped', content: '' });
    expect(run.output.join).toMatchObject({
      kind: 'merge',
      data: [{ nodeId: 'bug', content: 'Bug specialist answers', data: null }],
    });
    // The reply hears the specialist that ran (through the merge), not the merge itself.
    expect(m.calls[2].user).toContain('Output of Bug specialist:\nBug specialist answers');
    expect(m.calls[2].user).not.toContain('Billing');
    expect(run.result).toBe('Writer answers');
    expect(run.metrics.steps).toBe(5);
    expect(run.output.note).toBeUndefined();
    expect(m.events.filter((e) => e.type === 'node_skipped').map((e) => e.nodeId)).toEqual([
      'billing',
      'other',
    ]);
  });

  it('takes the else path when no branch is true, and records each expression’s value', async () => {
    const m = model({ classify: { category: 'other' } });
    const run = await runWorkflow(triage(), { input: 'Hello' }, m.ports);
    expect(m.asked()).toEqual(['classify', 'other', 'reply']);
    const completed = m.events.find((e) => e.type === 'node_completed' && e.nodeId === 'route');
    expect(completed).toMatchObject({
      kind: 'condition',
      agentId: null,
      evaluation: {
        kind: 'condition',
        evaluated: [
          { name: 'Billing', expression: 'nodes.classify.data.category == "billing"', value: false },
          { name: 'Bug', expression: 'nodes.classify.data.category == "bug"', value: false },
        ],
        result: { branch: 'else' },
      },
    });
    expect(run.output.route.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });

  it('stops evaluating at the first true branch', async () => {
    const m = model({ classify: { category: 'billing' } });
    await runWorkflow(triage(), { input: 'Refund' }, m.ports);
    const route = m.events.find((e) => e.type === 'node_completed' && e.nodeId === 'route');
    expect(route && 'evaluation' in route ? route.evaluation?.evaluated.map((e) => e.value) : []).toEqual([
      true,
    ]);
  });

  it('a first merge goes on with the first path to finish, once, whatever the order of its edges', async () => {
    const definition: RunDefinition = {
      processType: 'sequential',
      agents,
      nodes: [
        { id: 'start', type: 'start' },
        step('a', 'billing'),
        step('b', 'bug'),
        { id: 'join', type: 'merge', data: { mode: 'first' } },
        step('reply', 'writer'),
        { id: 'end', type: 'end' },
      ],
      edges: [
        edge('start', 'a'),
        edge('start', 'b'),
        edge('b', 'join'),
        edge('a', 'join'),
        edge('join', 'reply'),
        edge('reply', 'end'),
      ],
    };
    const m = model();
    const run = await runWorkflow(definition, { input: 'Go' }, m.ports);
    expect(m.asked()).toEqual(['a', 'b', 'reply']);
    expect(run.output.join.data).toEqual([
      { nodeId: 'a', content: 'Billing specialist answers', data: null },
    ]);
    expect(m.events.filter((e) => e.type === 'node_started' && e.nodeId === 'join')).toHaveLength(1);
  });

  it('a node with two paths into it and no merge waits for both', async () => {
    const definition: RunDefinition = {
      processType: 'sequential',
      agents,
      nodes: [
        { id: 'start', type: 'start' },
        step('a', 'billing'),
        step('b', 'bug'),
        step('c', 'other'),
        step('last', 'writer'),
        { id: 'end', type: 'end' },
      ],
      // start → a → b → last, and start → last directly: last must not run before b.
      edges: [
        edge('start', 'a'),
        edge('a', 'b'),
        edge('b', 'last'),
        edge('start', 'c'),
        edge('c', 'last'),
        edge('last', 'end'),
      ],
    };
    const m = model();
    await runWorkflow(definition, { input: 'Go' }, m.ports);
    expect(m.asked()).toEqual(['a', 'c', 'b', 'last']);
    expect(m.calls[3].user).toContain('Output of Bug specialist');
    expect(m.calls[3].user).toContain('Output of Generalist');
  });

  it('a transform sets vars that later expressions and prompt templates read', async () => {
    const definition: RunDefinition = {
      processType: 'sequential',
      agents,
      nodes: [
        { id: 'start', type: 'start' },
        {
          id: 'prepare',
          type: 'transform',
          data: {
            assignments: [
              { name: 'customer', value: 'input.customer' },
              { name: 'greeting', value: '"Dear " + vars.customer' },
              { name: 'count', value: 'size(input.items) + 1' },
            ],
          },
        },
        step('write', 'writer', {
          prompt: '{{ vars.greeting }}, you have {{ vars.count }} items ({{ input.items }}).',
        }),
        { id: 'end', type: 'end' },
      ],
      edges: [edge('start', 'prepare'), edge('prepare', 'write'), edge('write', 'end')],
    };
    const m = model();
    const run = await runWorkflow(
      definition,
      { input: { customer: 'Ada', items: ['tea', 'cake'] } },
      m.ports,
    );
    expect(run.output.prepare).toMatchObject({
      kind: 'transform',
      content: '',
      data: { customer: 'Ada', greeting: 'Dear Ada', count: 3 },
    });
    expect(m.calls[0].user).toBe('Dear Ada, you have 3 items (["tea","cake"]).');
    expect(run.result).toBe('Writer answers');
  });

  it('a node’s output schema wins over its agent’s, and an answer’s data reaches the output', async () => {
    const own = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const definition = triage();
    definition.nodes[1] = step('classify', 'classifier', { outputSchema: own });
    const m = model({ classify: { category: 'billing' } });
    await runWorkflow(definition, { input: 'x' }, m.ports);
    expect(m.calls[0].outputSchema).toEqual(own);
    expect(m.calls.find((c) => c.nodeId === 'billing')?.outputSchema).toBeUndefined();
  });

  it('a condition that cannot evaluate fails the run with a readable error naming it', async () => {
    const m = model({ classify: { amount: 3 } });
    await expect(runWorkflow(triage(), { input: 'x' }, m.ports)).rejects.toThrow(
      /Condition "Route": .*category/,
    );
    expect(m.events.map((e) => `${e.type}:${e.nodeId}`)).toContain('node_failed:route');
  });

  it('resumes from finished steps: a finished condition keeps its branch and nothing finished runs again', async () => {
    const first = model({ classify: { category: 'billing' } });
    const done = await runWorkflow(triage(), { input: 'Refund' }, first.ports);
    const completed = Object.fromEntries(
      Object.entries(done.output).filter(
        ([id, o]) => o.status === 'completed' && ['classify', 'route', 'billing'].includes(id),
      ),
    );
    // The model would now say "bug": a resumed run must not ask it, nor change the path taken.
    const again = model({ classify: { category: 'bug' } });
    const resumed = await runWorkflow(triage(), { input: 'Refund' }, { ...again.ports, completed });
    expect(again.asked()).toEqual(['reply']);
    expect(resumed.output.bug.status).toBe('skipped');
    expect(resumed.output.join.data).toEqual([
      { nodeId: 'billing', content: 'Billing specialist answers', data: null },
    ]);
  });

  it('runs an agent-only line exactly as before: one after the other, each hearing the one before', async () => {
    const definition: RunDefinition = {
      processType: 'sequential',
      agents,
      nodes: [
        { id: 'start', type: 'start' },
        step('a', 'billing'),
        step('b', 'writer'),
        { id: 'end', type: 'end' },
      ],
      edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'end')],
    };
    const m = model();
    const run = await runWorkflow(definition, { input: 'Go' }, m.ports);
    expect(m.asked()).toEqual(['a', 'b']);
    expect(m.calls[1].user).toBe('Go\n\nOutput of Billing specialist:\nBilling specialist answers');
    expect(run.output.a).toEqual({
      content: 'Billing specialist answers',
      metadata: {
        agentName: 'Billing specialist',
        role: 'Billing specialist role',
        model: 'gpt-4o',
        baseNodeId: 'a',
      },
      executionTime: 5,
      usage,
      kind: 'agent',
      status: 'completed',
    });
  });

  it('runs each node once through a cycle (a warning, not a loop)', async () => {
    const definition: RunDefinition = {
      processType: 'sequential',
      agents,
      nodes: [
        { id: 'start', type: 'start' },
        step('a', 'billing'),
        step('b', 'writer'),
        { id: 'end', type: 'end' },
      ],
      edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'a'), edge('b', 'end')],
    };
    const m = model();
    await runWorkflow(definition, { input: 'Go' }, m.ports);
    expect(m.asked()).toEqual(['a', 'b']);
  });
});

describe("an agent's Blocked path", () => {
  /** Start → draft → (usual) publish → end, and draft's Blocked path → apologise → end. */
  const guarded = (withBlockedPath: boolean): RunDefinition => ({
    processType: 'sequential',
    agents,
    nodes: [
      { id: 'start', type: 'start' },
      step('draft', 'writer'),
      step('publish', 'other'),
      ...(withBlockedPath ? [step('apologise', 'other')] : []),
      { id: 'end', type: 'end' },
    ],
    edges: [
      edge('start', 'draft'),
      edge('draft', 'publish'),
      ...(withBlockedPath ? [edge('draft', 'apologise', 'fail'), edge('apologise', 'end')] : []),
      edge('publish', 'end'),
    ],
  });
  /** A model whose `draft` call is blocked by the agent's guardrails when its node routes blocks. */
  function blockingModel() {
    const m = model();
    const answer = m.ports.callAgent;
    m.ports.callAgent = async (call) => {
      if (call.nodeId !== 'draft') return answer(call);
      m.calls.push(call);
      if (!call.routesBlocks) throw new Error('Blocked by guardrail: PII');
      return { content: 'Blocked by guardrail: PII', usage, blockedBy: 'PII' };
    };
    return m;
  }

  it('asks the agent to answer a block only when its node has the path, and then goes on along it', async () => {
    const m = blockingModel();
    const run = await runWorkflow(guarded(true), { input: 'Write to ana@example.com' }, m.ports);
    expect(m.calls.find((c) => c.nodeId === 'draft')?.routesBlocks).toBe(true);
    expect(m.asked()).toEqual(['draft', 'apologise']);
    expect(run.output.draft.metadata.blockedBy).toBe('PII');
    expect(run.output.publish.status).toBe('skipped');
    expect(run.result).toBe('Generalist answers');
  });

  it('takes the usual path when nothing was blocked', async () => {
    const m = model();
    const run = await runWorkflow(guarded(true), { input: 'Hello' }, m.ports);
    expect(m.asked()).toEqual(['draft', 'publish']);
    expect(run.output.apologise.status).toBe('skipped');
  });

  it('fails the run on a block when the node has no Blocked path', async () => {
    const m = blockingModel();
    await expect(runWorkflow(guarded(false), { input: 'Hi' }, m.ports)).rejects.toThrow(
      'Blocked by guardrail: PII',
    );
    expect(m.calls[0].routesBlocks).toBeUndefined();
  });
});
