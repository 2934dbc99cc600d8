import { describe, expect, it } from 'vitest';
import type { NodeOutput } from '@crewline/contracts';
import {
  runWorkflow,
  type AgentCall,
  type EngineEvent,
  type RunDefinition,
  type RunPorts,
} from './run-workflow';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const agents = {
  enricher: {
    id: 'enricher',
    name: 'Enricher',
    role: 'Researcher',
    goal: 'Enrich',
    llmProvider: 'openai',
    llmModel: 'gpt-4o',
  },
  editor: {
    id: 'editor',
    name: 'Editor',
    role: 'Editor',
    goal: 'Edit',
    llmProvider: 'openai',
    llmModel: 'gpt-4o',
    outputSchema: {
      type: 'object',
      properties: { approved: { type: 'boolean' }, draft: { type: 'string' } },
    },
  },
};

/** Start → a node of `kind` with `data` → End, given the run's input. */
function around(type: 'map' | 'loop', data: Record<string, unknown>): RunDefinition {
  return {
    processType: 'sequential',
    agents,
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'each', type, data: { label: type === 'map' ? 'Enrich leads' : 'Draft and review', ...data } },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'each' },
      { source: 'each', target: 'end' },
    ],
  };
}

/** A model answering after a few ticks, tracking how many calls are in flight at once. */
function model(answer: (call: AgentCall) => { content: string; data?: unknown } | Error) {
  const calls: AgentCall[] = [];
  const events: EngineEvent[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let clock = 0;
  const ports: RunPorts = {
    now: () => (clock += 1),
    async callAgent(call) {
      calls.push(call);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Answers come back out of order: later items answer sooner.
      for (let i = 0; i < 20 - (calls.length % 7); i++) await Promise.resolve();
      inFlight--;
      const answered = answer(call);
      if (answered instanceof Error) throw answered;
      return { ...answered, usage };
    },
    onEvent: (e) => {
      events.push(e);
    },
  };
  return { ports, calls, events, maxInFlight: () => maxInFlight };
}

const leads = Array.from({ length: 12 }, (_, i) => ({ company: `Company ${i}` }));
const mapOver = (extra: Record<string, unknown> = {}) =>
  around('map', {
    items: 'input.leads',
    run: {
      agentId: 'enricher',
      prompt: 'Find the website of {{ item.company }} ({{ index }}, last: {{ last }})',
    },
    concurrency: 5,
    onItemError: 'fail',
    ...extra,
  });

describe('a map', () => {
  it('runs each item as its own step, at most `concurrency` at a time, its results in item order', async () => {
    const m = model((call) => ({ content: call.user.replace('Find the website of ', '') }));
    const run = await runWorkflow(mapOver(), { input: { leads } }, m.ports);

    expect(m.calls).toHaveLength(12);
    expect(m.maxInFlight()).toBe(5);
    const data = run.output.each.data as { index: number; status: string; content: string }[];
    expect(data.map((d) => d.index)).toEqual([...Array(12).keys()]);
    expect(data[3]).toEqual({
      index: 3,
      status: 'completed',
      content: 'Company 3 (3, last: false)',
      data: null,
    });
    expect(data[11].content).toBe('Company 11 (11, last: true)');
    // Each item is a child step with its own tokens; the map itself calls no model.
    expect(run.output['each[3]']).toMatchObject({
      kind: 'agent',
      status: 'completed',
      usage,
      metadata: { baseNodeId: 'each' },
    });
    expect(run.output.each.usage.totalTokens).toBe(0);
    expect(run.metrics.totalTokens).toBe(24);
    expect(
      m.events
        .filter((e) => e.type === 'node_completed')
        .map((e) => e.nodeId)
        .at(-1),
    ).toBe('each');
    // Its size is reported once, after it started and before its first item (live progress).
    const order = m.events.map((e) => `${e.type}:${e.nodeId}`);
    expect(m.events.filter((e) => e.type === 'node_items')).toEqual([
      { type: 'node_items', nodeId: 'each', baseNodeId: 'each', agentId: null, kind: 'map', total: 12 },
    ]);
    expect(order.indexOf('node_items:each')).toBe(order.indexOf('node_started:each') + 1);
  });

  it('keeps an item’s error and goes on with `continue`', async () => {
    const m = model((call) =>
      call.user.includes('Company 4 ') ? new Error('The model refused') : { content: 'ok' },
    );
    const run = await runWorkflow(mapOver({ onItemError: 'continue' }), { input: { leads } }, m.ports);
    const data = run.output.each.data as { status: string; error?: string }[];
    expect(data[4]).toEqual({
      index: 4,
      status: 'failed',
      content: '',
      data: null,
      error: 'The model refused',
    });
    expect(data.filter((d) => d.status === 'completed')).toHaveLength(11);
    expect(m.events.filter((e) => e.type === 'node_failed').map((e) => e.nodeId)).toEqual(['each[4]']);
  });

  it('stops with `fail`: no new item starts, and the node fails naming the item', async () => {
    const m = model((call) =>
      call.user.includes('Company 1 ') ? new Error('The model refused') : { content: 'ok' },
    );
    await expect(runWorkflow(mapOver(), { input: { leads } }, m.ports)).rejects.toThrow(
      'Map "Enrich leads": item 2 of 12 failed: The model refused',
    );
    // The five in flight when it failed finished; nothing after them started.
    expect(m.calls.length).toBeLessThan(12);
    expect(m.events.filter((e) => e.type === 'node_failed').map((e) => e.nodeId)).toEqual([
      'each[1]',
      'each',
    ]);
  });

  it('never runs a finished item again when the run resumes: only the missing ones', async () => {
    const first = model(() => ({ content: 'ok' }));
    const done = await runWorkflow(mapOver(), { input: { leads } }, first.ports);
    const completed: Record<string, NodeOutput> = {};
    for (const i of [0, 1, 2, 5, 8]) completed[`each[${i}]`] = done.output[`each[${i}]`];
    const again = model(() => ({ content: 'again' }));
    const resumed = await runWorkflow(mapOver(), { input: { leads } }, { ...again.ports, completed });
    expect(again.calls).toHaveLength(7);
    expect(again.calls.map((c) => c.nodeId)).not.toContain('each[5]');
    const data = resumed.output.each.data as { content: string }[];
    expect(data.map((d) => d.content)).toEqual(
      leads.map((_, i) => ([0, 1, 2, 5, 8].includes(i) ? 'ok' : 'again')),
    );
  });

  it('refuses a list longer than a map takes, and items that are not a list', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => i);
    const m = model(() => ({ content: 'ok' }));
    await expect(runWorkflow(mapOver({ items: 'input.many' }), { input: { many } }, m.ports)).rejects.toThrow(
      'Map "Enrich leads" got 1001 items; a map takes at most 1000',
    );
    await expect(
      runWorkflow(mapOver({ items: 'input.one' }), { input: { one: 'x' } }, m.ports),
    ).rejects.toThrow('Map "Enrich leads": items gave a string, not a list');
    expect(m.calls).toHaveLength(0);
  });

  it('passes a cancel on instead of keeping it as an item’s error', async () => {
    const cancelled = new Error('cancelled');
    const m = model((call) => (call.user.includes('Company 2 ') ? cancelled : { content: 'ok' }));
    const ports = { ...m.ports, stops: (error: unknown) => error === cancelled };
    await expect(runWorkflow(mapOver({ onItemError: 'continue' }), { input: { leads } }, ports)).rejects.toBe(
      cancelled,
    );
  });
});

describe('a loop', () => {
  const loop = (extra: Record<string, unknown> = {}) =>
    around('loop', {
      run: { agentId: 'editor', prompt: 'Improve: {{ last == null ? input.topic : last.data.draft }}' },
      until: 'last.data.approved',
      maxIterations: 3,
      ...extra,
    });

  it('runs pass after pass until its condition over the last pass holds', async () => {
    const m = model(() => {
      const pass = m.calls.length;
      return { content: `draft ${pass}`, data: { approved: pass === 2, draft: `draft ${pass}` } };
    });
    const run = await runWorkflow(loop(), { input: { topic: 'tides' } }, m.ports);
    expect(m.calls.map((c) => [c.nodeId, c.user])).toEqual([
      ['each#1', 'Improve: tides'],
      ['each#2', 'Improve: draft 1'],
    ]);
    expect(m.calls[0].outputSchema).toEqual(agents.editor.outputSchema);
    expect(run.output.each).toMatchObject({
      kind: 'loop',
      content: 'draft 2',
      data: [
        { index: 0, status: 'completed', content: 'draft 1', data: { approved: false, draft: 'draft 1' } },
        { index: 1, status: 'completed', content: 'draft 2', data: { approved: true, draft: 'draft 2' } },
      ],
    });
    expect(run.result).toBe('draft 2');
  });

  it('stops at maxIterations and completes; `until: true` runs once', async () => {
    const m = model(() => ({ content: 'never good', data: { approved: false, draft: 'x' } }));
    const run = await runWorkflow(loop(), { input: { topic: 'tides' } }, m.ports);
    expect(m.calls).toHaveLength(3);
    expect(run.output.each.status).toBe('completed');
    const once = model(() => ({ content: 'one', data: { approved: false, draft: 'x' } }));
    await runWorkflow(loop({ until: 'true' }), { input: { topic: 'tides' } }, once.ports);
    expect(once.calls).toHaveLength(1);
  });
});
