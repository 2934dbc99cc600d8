import { describe, expect, it } from 'vitest';
import {
  runWorkflow,
  WorkflowRunError,
  type AgentCall,
  type EngineEvent,
  type RunDefinition,
  type RunPorts,
} from './run-workflow';

const agent = (id: string, name: string) => ({
  id,
  name,
  role: `${name} role`,
  goal: `${name} goal`,
  llmProvider: 'openai',
  llmModel: 'gpt-4o',
});
const agents = { a1: agent('a1', 'Researcher'), a2: agent('a2', 'Writer'), a3: agent('a3', 'Editor') };
/** Yields a few times so other calls can start meanwhile (the engine has no timers). */
const ticks = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
const usage = (n: number) => ({ promptTokens: n, completionTokens: n, totalTokens: 2 * n });

function definition(processType: RunDefinition['processType'], ids = ['A', 'B']): RunDefinition {
  const chain = ['start', ...ids, 'end'];
  return {
    processType,
    agents,
    nodes: [
      { id: 'start', type: 'start' },
      ...ids.map((id, i) => ({ id, type: 'agent' as const, agentId: `a${i + 1}` })),
      { id: 'end', type: 'end' },
    ],
    edges: chain.slice(1).map((target, i) => ({ source: chain[i], target })),
  };
}

/** A scripted model: answers by node id, records every call, counts calls in flight. */
function scripted(answer: (call: AgentCall) => Promise<string> | string = (c) => `${c.agent.name} says hi`) {
  const calls: AgentCall[] = [];
  let clock = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const events: string[] = [];
  const received: EngineEvent[] = [];
  const ports: RunPorts = {
    now: () => (clock += 5),
    async callAgent(call) {
      calls.push(call);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const content = await answer(call);
        return { content, usage: usage(3) };
      } finally {
        inFlight--;
      }
    },
    onEvent: (e) => {
      events.push(`${e.type}:${e.nodeId}`);
      received.push(e);
    },
  };
  return { ports, calls, events, received, maxInFlight: () => maxInFlight };
}

describe('runWorkflow', () => {
  it('runs sequential agents in edge order and passes each one its predecessor’s output', async () => {
    const model = scripted((c) => (c.nodeId === 'A' ? 'Three facts about tea' : 'A post about tea'));
    const run = await runWorkflow(definition('sequential'), { input: 'Write about tea' }, model.ports);
    expect(model.calls.map((c) => c.nodeId)).toEqual(['A', 'B']);
    expect(model.calls[0].system).toContain('You are Researcher, Researcher role.');
    expect(model.calls[1].user).toContain('Output of Researcher:\nThree facts about tea');
    expect(run.result).toBe('A post about tea');
    expect(run.output.A).toMatchObject({
      content: 'Three facts about tea',
      metadata: { agentName: 'Researcher', role: 'Researcher role', model: 'gpt-4o' },
      usage: usage(3),
    });
    expect(run.output.B.executionTime).toBeGreaterThan(0);
    expect(run.metrics).toMatchObject({ totalTokens: 12, steps: 2 });
    expect(model.events).toEqual([
      'node_started:A',
      'node_completed:A',
      'node_started:B',
      'node_completed:B',
    ]);
  });

  it('names each call’s step and times each step by the run’s one clock', async () => {
    const model = scripted();
    const run = await runWorkflow(definition('sequential'), { input: 'Go' }, model.ports);
    expect(model.calls.map((c) => c.step)).toEqual([
      { nodeId: 'A', baseNodeId: 'A', agentId: 'a1', kind: 'agent' },
      { nodeId: 'B', baseNodeId: 'B', agentId: 'a2', kind: 'agent' },
    ]);
    // ports.now() ticks 5 per read: the run starts at 5, A runs 10–15, B 20–25.
    expect(
      model.received.map((e) => [
        e.type,
        e.nodeId,
        'startedAt' in e ? e.startedAt : undefined,
        'completedAt' in e ? e.completedAt : undefined,
      ]),
    ).toEqual([
      ['node_started', 'A', 10, undefined],
      ['node_completed', 'A', 10, 15],
      ['node_started', 'B', 20, undefined],
      ['node_completed', 'B', 20, 25],
    ]);
    expect(run.output.A.executionTime).toBe(5);
  });

  it('gives every agent the runtime instructions and parameters', async () => {
    const model = scripted();
    await runWorkflow(
      definition('sequential'),
      { input: { topic: 'tea' }, instructions: 'Be brief', parameters: { param_1: 'UK' } },
      model.ports,
    );
    for (const call of model.calls) {
      expect(call.user).toContain('"topic": "tea"');
      expect(call.user).toContain('Instructions for this run:\nBe brief');
      expect(call.user).toContain('- param_1: UK');
    }
  });

  it('runs parallel agents at the same time, bounded, each on the run input', async () => {
    const model = scripted(async (c) => {
      await ticks();
      return `${c.nodeId} done`;
    });
    const run = await runWorkflow(
      definition('parallel', ['A', 'B', 'C']),
      { input: 'Go' },
      { ...model.ports, concurrency: 2 },
    );
    expect(model.maxInFlight()).toBe(2);
    expect(run.result).toEqual({ A: 'A done', B: 'B done', C: 'C done' });
    for (const call of model.calls) expect(call.user).toBe('Go');

    const wide = scripted(async () => {
      await ticks();
      return 'x';
    });
    await runWorkflow(definition('parallel', ['A', 'B', 'C']), { input: 'Go' }, wide.ports);
    expect(wide.maxInFlight()).toBe(3);
  });

  it('lets a hierarchical lead delegate to a co-worker and records the delegation', async () => {
    const model = scripted(async (c) => {
      if (c.nodeId === 'A') {
        const tools = c.tools!;
        expect(Object.keys(tools)).toEqual(['delegate_work_to_coworker', 'ask_question_to_coworker']);
        // The lead is told who its team is, so the run can say whom it could have asked.
        expect(c.coworkers).toEqual(['Writer', 'Editor']);
        const draft = await tools.delegate_work_to_coworker.execute({
          coworker: 'writer',
          task: 'Draft the post',
          context: 'About tea',
        });
        const unknown = await tools.ask_question_to_coworker.execute({ coworker: 'Nobody', question: '?' });
        expect(unknown).toContain('There is no co-worker named "Nobody"');
        return `Final: ${draft}`;
      }
      return `${c.agent.name} drafted it`;
    });
    const run = await runWorkflow(
      definition('hierarchical', ['A', 'B', 'C']),
      { input: 'Publish a post' },
      model.ports,
    );
    expect(run.result).toBe('Final: Writer drafted it');
    expect(model.calls.map((c) => c.nodeId)).toEqual(['A', 'B#1']);
    // A delegation's call names its own step id and the node it runs.
    expect(model.calls[1].step).toEqual({ nodeId: 'B#1', baseNodeId: 'B', agentId: 'a2', kind: 'agent' });
    expect(model.calls[1].user).toContain('Draft the post\n\nContext:\nAbout tea');
    expect(run.output['B#1'].metadata).toMatchObject({ agentName: 'Writer', delegatedBy: 'A' });
    expect(Object.keys(run.output).sort()).toEqual(['A', 'B#1']);
    // The delegation's events name its own step id, the node it runs and that node's agent.
    expect(
      model.received.map(({ type, nodeId, baseNodeId, agentId }) => [type, nodeId, baseNodeId, agentId]),
    ).toEqual([
      ['node_started', 'A', 'A', 'a1'],
      ['node_started', 'B#1', 'B', 'a2'],
      ['node_completed', 'B#1', 'B', 'a2'],
      ['node_completed', 'A', 'A', 'a1'],
    ]);
    expect(model.received.find((e) => e.type === 'node_completed' && e.nodeId === 'B#1')).toMatchObject({
      output: run.output['B#1'],
    });
  });

  it('gives a second delegation to the same co-worker its own step id, on the same node', async () => {
    const model = scripted(async (c) => {
      if (c.nodeId !== 'A') return `${c.agent.name}: ${c.user.slice(0, 5)}`;
      const delegate = c.tools!.delegate_work_to_coworker;
      const first = await delegate.execute({ coworker: 'Writer', task: 'First' });
      const second = await delegate.execute({ coworker: 'Writer', task: 'Again' });
      return `${first} / ${second}`;
    });
    const run = await runWorkflow(definition('hierarchical', ['A', 'B']), { input: 'Go' }, model.ports);
    expect(run.result).toBe('Writer: First / Writer: Again');
    expect(Object.keys(run.output).sort()).toEqual(['A', 'B#1', 'B#2']);
    const completed = model.received.filter((e) => e.type === 'node_completed' && e.nodeId !== 'A');
    expect(completed.map((e) => [e.nodeId, e.baseNodeId, e.agentId])).toEqual([
      ['B#1', 'B', 'a2'],
      ['B#2', 'B', 'a2'],
    ]);
  });

  it('resumes from finished steps without calling their agents again', async () => {
    const model = scripted();
    const finished = {
      content: 'Facts from the first attempt',
      metadata: { agentName: 'Researcher', role: 'r', model: 'gpt-4o' },
      executionTime: 9,
      usage: usage(4),
    };
    const run = await runWorkflow(
      definition('sequential'),
      { input: 'Go' },
      { ...model.ports, completed: { A: finished } },
    );
    expect(model.calls.map((c) => c.nodeId)).toEqual(['B']);
    expect(model.calls[0].user).toContain('Facts from the first attempt');
    expect(run.output.A).toEqual(finished);
    expect(run.metrics.totalTokens).toBe(8 + 6);
    // A reused step is not run again, so it reports nothing.
    expect(model.events).toEqual(['node_started:B', 'node_completed:B']);
  });

  it('reports a failed step with the model’s error, then fails the run with that error', async () => {
    const overloaded = new Error('OpenAI answered 500: overloaded');
    const failing = scripted((c) => (c.nodeId === 'B' ? Promise.reject(overloaded) : 'Facts'));
    await expect(runWorkflow(definition('sequential'), { input: 'Go' }, failing.ports)).rejects.toBe(
      overloaded,
    );
    expect(failing.events).toEqual(['node_started:A', 'node_completed:A', 'node_started:B', 'node_failed:B']);
    expect(failing.received.at(-1)).toEqual({
      type: 'node_failed',
      nodeId: 'B',
      baseNodeId: 'B',
      agentId: 'a2',
      kind: 'agent',
      error: overloaded,
      // The run's clock ticks 5 per read: started at 5, A at 10–15, B at 20, failed at 25.
      startedAt: 20,
      completedAt: 25,
    });
  });

  it('fails with the step’s error even when reporting the failure fails too', async () => {
    const overloaded = new Error('overloaded');
    const failing = scripted(() => Promise.reject(overloaded));
    const onEvent: RunPorts['onEvent'] = (event) => {
      if (event.type === 'node_failed') throw new Error('the store is down');
    };
    await expect(
      runWorkflow(definition('sequential'), { input: 'Go' }, { ...failing.ports, onEvent }),
    ).rejects.toBe(overloaded);
  });

  it('fails the run when its step handler fails after a step completed', async () => {
    const model = scripted();
    const onEvent: RunPorts['onEvent'] = (event) => {
      if (event.type === 'node_completed') throw new Error('delivery failed');
    };
    await expect(
      runWorkflow(definition('sequential'), { input: 'Go' }, { ...model.ports, onEvent }),
    ).rejects.toThrow('delivery failed');
    expect(model.calls.map((c) => c.nodeId)).toEqual(['A']);
  });

  it('refuses missing agents', async () => {
    const orphan = { ...definition('sequential'), agents: { a1: agents.a1 } };
    await expect(runWorkflow(orphan, { input: 'Go' }, scripted().ports)).rejects.toBeInstanceOf(
      WorkflowRunError,
    );
    const empty = { ...definition('sequential'), edges: [] };
    await expect(runWorkflow(empty, { input: 'Go' }, scripted().ports)).rejects.toThrow('no agent connected');
  });
});
