import { describe, expect, it } from 'vitest';
import {
  runWorkflow,
  WorkflowRunError,
  type AgentCall,
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
    onEvent: (e) => void events.push(`${e.type}:${e.nodeId}`),
  };
  return { ports, calls, events, maxInFlight: () => maxInFlight };
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
    expect(model.calls[1].user).toContain('Draft the post\n\nContext:\nAbout tea');
    expect(run.output['B#1'].metadata).toMatchObject({ agentName: 'Writer', delegatedBy: 'A' });
    expect(Object.keys(run.output).sort()).toEqual(['A', 'B#1']);
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
  });

  it('fails with the model’s error and refuses missing agents', async () => {
    const failing = scripted(() => Promise.reject(new Error('OpenAI answered 500: overloaded')));
    await expect(runWorkflow(definition('sequential'), { input: 'Go' }, failing.ports)).rejects.toThrow(
      'OpenAI answered 500: overloaded',
    );
    const orphan = { ...definition('sequential'), agents: { a1: agents.a1 } };
    await expect(runWorkflow(orphan, { input: 'Go' }, scripted().ports)).rejects.toBeInstanceOf(
      WorkflowRunError,
    );
    const empty = { ...definition('sequential'), edges: [] };
    await expect(runWorkflow(empty, { input: 'Go' }, scripted().ports)).rejects.toThrow('no agent connected');
  });
});
