import { describe, expect, it } from 'vitest';
import type { NodeOutput } from '@crewline/contracts';
import type { AgentCall, RunDefinition } from './run-workflow';
import { contextFromRun, NodeTestRefused, testNode, type NodeTestPorts } from './test-node';

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const agents: RunDefinition['agents'] = {
  classifier: {
    id: 'classifier',
    name: 'Classifier',
    role: 'Triage',
    goal: 'Classify',
    llmProvider: 'openai',
    llmModel: 'gpt-4o',
  },
  writer: {
    id: 'writer',
    name: 'Writer',
    role: 'Writer',
    goal: 'Write',
    llmProvider: 'openai',
    llmModel: 'gpt-4o',
  },
};

/** Start → classify (agent) → route (condition) → vip (transform) → reply (agent) / else → end. */
const triage = (
  replace: Partial<Record<string, RunDefinition['nodes'][number]['data']>> = {},
): RunDefinition => ({
  processType: 'sequential',
  agents,
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'classify',
      type: 'agent',
      agentId: 'classifier',
      data: { label: 'Classify', outputSchema: { type: 'object', properties: { tier: { type: 'string' } } } },
    },
    {
      id: 'route',
      type: 'condition',
      data: replace.route ?? {
        label: 'Route',
        branches: [{ id: 'vip', label: 'VIP', when: 'nodes.classify.data.tier == "gold"' }],
      },
    },
    {
      id: 'vip',
      type: 'transform',
      data: { label: 'Greeting', assignments: [{ name: 'greeting', value: '"Dear " + input.name' }] },
    },
    { id: 'reply', type: 'agent', agentId: 'writer', data: replace.reply ?? { label: 'Reply' } },
    {
      id: 'each',
      type: 'map',
      data: {
        label: 'Each lead',
        items: 'input.leads',
        run: { agentId: 'writer', prompt: 'Write to {{ item }}' },
        concurrency: 5,
        onItemError: 'fail',
      },
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { source: 'start', target: 'classify' },
    { source: 'classify', target: 'route' },
    { source: 'route', target: 'vip', sourceHandle: 'vip' },
    { source: 'route', target: 'end', sourceHandle: 'else' },
    { source: 'vip', target: 'reply' },
    { source: 'reply', target: 'each' },
    { source: 'each', target: 'end' },
  ],
});

function ports(answer: (call: AgentCall) => { content: string; data?: unknown } = () => ({ content: 'ok' })) {
  const calls: AgentCall[] = [];
  let clock = 1000;
  const p: NodeTestPorts = {
    now: () => (clock += 10),
    async callAgent(call) {
      calls.push(call);
      return { ...answer(call), usage };
    },
  };
  return { ports: p, calls };
}

const gold = {
  input: { name: 'Ada', leads: [] },
  nodes: { classify: { content: '{"tier":"gold"}', data: { tier: 'gold' }, status: 'completed' } },
  vars: {},
};

describe('testNode', () => {
  it('evaluates a condition on the given context without calling a model, with what it evaluated', async () => {
    const m = ports();
    const result = await testNode({ definition: triage(), nodeId: 'route', context: gold }, m.ports);

    expect(m.calls).toHaveLength(0);
    expect(result).toEqual({
      status: 'completed',
      content: '',
      data: { branch: 'vip' },
      evaluation: {
        kind: 'condition',
        evaluated: [{ name: 'VIP', expression: 'nodes.classify.data.tier == "gold"', value: true }],
        result: { branch: 'vip' },
      },
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: expect.any(Number),
    });
  });

  it('asks the agent with its prompt template, its output schema and the upstream answers, and returns its data', async () => {
    const m = ports(() => ({ content: '{"ok":true}', data: { ok: true } }));
    const definition = triage({
      reply: {
        label: 'Reply',
        prompt: 'Write to {{ input.name }} ({{ vars.greeting }}), tier {{ nodes.classify.data.tier }}',
        outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      },
    });
    const context = { ...gold, vars: { greeting: 'Dear Ada' } };
    const result = await testNode({ definition, nodeId: 'reply', context }, m.ports);

    expect(result).toMatchObject({ status: 'completed', content: '{"ok":true}', data: { ok: true }, usage });
    expect(m.calls).toHaveLength(1);
    expect(m.calls[0]).toMatchObject({
      nodeId: 'reply',
      user: 'Write to Ada (Dear Ada), tier gold',
      outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      agent: { id: 'writer' },
    });
  });

  it("gives an agent without a prompt the run's default message with the answers relayed to it", async () => {
    const m = ports();
    await testNode({ definition: triage(), nodeId: 'reply', context: gold }, m.ports);
    // The transform and the condition pass the classifier's answer on, as in a run.
    expect(m.calls[0].user).toContain('Output of Classify:\n{"tier":"gold"}');
    expect(m.calls[0].user).toContain('"name": "Ada"');
  });

  it('runs a transform and returns the values it set', async () => {
    const result = await testNode({ definition: triage(), nodeId: 'vip', context: gold }, ports().ports);
    expect(result).toMatchObject({
      status: 'completed',
      data: { greeting: 'Dear Ada' },
      evaluation: { kind: 'transform', evaluated: [{ name: 'greeting', value: 'Dear Ada' }] },
    });
  });

  it('runs a map on its first 3 items only and says so', async () => {
    const m = ports((call) => ({ content: call.user }));
    const leads = Array.from({ length: 40 }, (_, i) => `lead ${i}`);
    const context = { ...gold, input: { name: 'Ada', leads } };
    const result = await testNode({ definition: triage(), nodeId: 'each', context }, m.ports);

    expect(m.calls.map((c) => c.user)).toEqual(['Write to lead 0', 'Write to lead 1', 'Write to lead 2']);
    expect(result).toMatchObject({
      status: 'completed',
      content: 'Write to lead 0\n\nWrite to lead 1\n\nWrite to lead 2',
      note: 'Tested on the first 3 of 40 items',
      usage: { totalTokens: 15 },
    });
    if (result.status !== 'completed') throw new Error('expected completed');
    expect(result.data).toEqual(
      [0, 1, 2].map((index) => ({
        index,
        status: 'completed',
        content: `Write to lead ${index}`,
        data: null,
      })),
    );
    expect(result.evaluation?.result).toEqual(result.data);
  });

  it('runs a short map whole, with no note', async () => {
    const context = { ...gold, input: { name: 'Ada', leads: ['a', 'b'] } };
    const result = await testNode({ definition: triage(), nodeId: 'each', context }, ports().ports);
    expect(result).toMatchObject({ status: 'completed' });
    expect(result).not.toHaveProperty('note');
    expect((result as { data: unknown[] }).data).toHaveLength(2);
  });

  it('runs a loop for at most 3 passes and says so when its condition never held', async () => {
    const definition = triage();
    definition.nodes.splice(-1, 0, {
      id: 'again',
      type: 'loop',
      data: {
        label: 'Again',
        run: { agentId: 'writer', prompt: 'Try {{ index }}' },
        until: 'false',
        maxIterations: 50,
      },
    });
    const m = ports();
    const result = await testNode({ definition, nodeId: 'again', context: gold }, m.ports);
    expect(m.calls.map((c) => c.user)).toEqual(['Try 0', 'Try 1', 'Try 2']);
    expect(result).toMatchObject({
      status: 'completed',
      note: 'Tested on the first 3 passes; a run goes on until its condition holds',
    });
  });

  it('answers a failure as a failed result with the reason, naming the node', async () => {
    const definition = triage({
      route: {
        label: 'Route',
        branches: [{ id: 'vip', label: 'VIP', when: 'nodes.classify.data.tier > 3' }],
      },
    });
    const result = await testNode({ definition, nodeId: 'route', context: gold }, ports().ports);
    expect(result).toMatchObject({ status: 'failed', error: expect.stringContaining('Condition "Route"') });
  });

  it('lets the port word a model failure, and throws what stops runs', async () => {
    const failing: NodeTestPorts = {
      now: () => 0,
      callAgent: () => Promise.reject(new Error('401 from the provider')),
      readable: (error) => `The model said: ${(error as Error).message}`,
    };
    await expect(
      testNode({ definition: triage(), nodeId: 'reply', context: gold }, failing),
    ).resolves.toEqual({
      status: 'failed',
      error: 'The model said: 401 from the provider',
      durationMs: 0,
    });
    const outage = new Error('connection refused');
    await expect(
      testNode(
        { definition: triage(), nodeId: 'reply', context: gold },
        { ...failing, stops: (error) => error === outage, callAgent: () => Promise.reject(outage) },
      ),
    ).rejects.toBe(outage);
  });

  it('refuses a node that is not a step, and one that does not exist', async () => {
    const refused = (nodeId: string) =>
      testNode({ definition: triage(), nodeId, context: gold }, ports().ports).catch((e: unknown) => e);
    expect(await refused('start')).toMatchObject({ reason: 'not-step' });
    expect(await refused('start')).toBeInstanceOf(NodeTestRefused);
    expect(((await refused('end')) as Error).message).toBe(
      'Only steps can be tested: End nodes never run as steps',
    );
    expect(await refused('nope')).toMatchObject({ reason: 'unknown' });
  });
});

describe('contextFromRun', () => {
  const out = (content: string, data?: unknown, status: NodeOutput['status'] = 'completed'): NodeOutput => ({
    content,
    metadata: {},
    executionTime: 1,
    usage,
    ...(data !== undefined ? { data } : {}),
    status,
  });

  it("keeps the run's input and only what is upstream of the node, with the vars upstream transforms set", () => {
    const context = contextFromRun(triage(), 'reply', {
      input: { name: 'Ada' },
      output: {
        classify: out('{"tier":"gold"}', { tier: 'gold' }),
        route: out('', { branch: 'vip' }),
        vip: out('', { greeting: 'Dear Ada' }),
        reply: out('Hello'),
        each: out('', []),
        'each[0]': out('x'),
      },
      run: { id: 'run-9', trigger: 'webhook', startedAt: '2026-12-01T10:00:00.000Z' },
    });
    expect(context).toEqual({
      input: { name: 'Ada' },
      nodes: {
        classify: { content: '{"tier":"gold"}', data: { tier: 'gold' }, status: 'completed' },
        route: { content: '', data: { branch: 'vip' }, status: 'completed' },
        vip: { content: '', data: { greeting: 'Dear Ada' }, status: 'completed' },
      },
      vars: { greeting: 'Dear Ada' },
      run: { id: 'run-9', trigger: 'webhook', startedAt: '2026-12-01T10:00:00.000Z' },
    });
  });
});
