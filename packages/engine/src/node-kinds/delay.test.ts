import { describe, expect, it } from 'vitest';
import { RunWaiting } from '../errors';
import type { EngineEvent, RunDefinition, RunPorts } from '../run-workflow';
import { runWorkflow } from '../run-workflow';
import { delayKind } from './delay';
import { validationContext } from './kind-fixtures';

const errorsOf = (data: Record<string, unknown>) =>
  delayKind.validate(
    [{ id: 'wait', type: 'delay', data: { label: 'Cool off', ...data } }],
    validationContext(),
  );

describe('validating a delay', () => {
  it('accepts a duration, or a time to wait until', () => {
    expect(errorsOf({ seconds: 60 })).toEqual([]);
    expect(errorsOf({ until: 'timestamp("2026-12-24T09:00:00Z")' })).toEqual([]);
  });

  it('needs a duration or a time', () => {
    const message = 'Delay "Cool off" needs a duration or a time to wait until';
    expect(errorsOf({})).toEqual([message]);
    expect(errorsOf({ until: '   ' })).toEqual([message]);
  });

  it('refuses a time that is not CEL, naming the node and the expression', () => {
    const [error, ...rest] = errorsOf({ until: 'timestamp(' });
    expect(rest).toEqual([]);
    expect(error).toMatch(/^Node "Cool off": timestamp\( — /);
    const [missing] = errorsOf({ until: 'timestamp(nodes.gone.content)' });
    expect(missing).toMatch(/^Node "Cool off": timestamp\(nodes\.gone\.content\) — .*gone/);
  });
});

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
/** Start → draft → wait → send → end. */
const reminder = (data: Record<string, unknown>): RunDefinition => ({
  processType: 'sequential',
  agents: {
    a1: {
      id: 'a1',
      name: 'Writer',
      role: 'Writer',
      goal: 'Write',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
    },
  },
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'draft', type: 'agent', agentId: 'a1', data: { label: 'Draft' } },
    { id: 'wait', type: 'delay', data: { label: 'Cool off', ...data } },
    { id: 'send', type: 'agent', agentId: 'a1', data: { label: 'Send' } },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { source: 'start', target: 'draft' },
    { source: 'draft', target: 'wait' },
    { source: 'wait', target: 'send' },
    { source: 'send', target: 'end' },
  ],
});

/** Ports whose clock reads `now` and whose delay port answers at once (its end has passed). */
function ports(now = Date.parse('2026-12-01T10:00:00.000Z')) {
  const asked: { nodeId: string; user: string }[] = [];
  const waited: { until: number; title: string }[] = [];
  const events: EngineEvent[] = [];
  const runPorts: RunPorts = {
    now: () => now,
    async callAgent(call) {
      asked.push({ nodeId: call.nodeId, user: call.user });
      return { content: `${call.nodeId} says hello`, usage };
    },
    waits: {
      async delay(_step, request) {
        waited.push(request);
        return { until: request.until };
      },
      approval: () => Promise.reject(new Error('no approval in this workflow')),
    },
    onEvent: (e) => {
      events.push(e);
    },
  };
  return { ports: runPorts, asked, waited, events };
}

describe('a delay in a run', () => {
  it('waits its duration from the run’s clock, then passes on what came before it', async () => {
    const m = ports();
    const run = await runWorkflow(reminder({ seconds: 90 }), { input: 'Hi' }, m.ports);
    expect(m.waited).toEqual([{ until: Date.parse('2026-12-01T10:01:30.000Z'), title: 'Cool off' }]);
    expect(run.output.wait).toMatchObject({
      kind: 'delay',
      status: 'completed',
      data: { until: '2026-12-01T10:01:30.000Z' },
    });
    expect(m.asked.map((a) => a.nodeId)).toEqual(['draft', 'send']);
    expect(m.asked[1].user).toContain('draft says hello');
    expect(run.result).toBe('send says hello');
  });

  it('waits until the time its expression gives: a timestamp or an ISO string', async () => {
    const m = ports();
    await runWorkflow(
      reminder({ until: 'timestamp(input.sendAt)' }),
      { input: { sendAt: '2026-12-24T09:00:00Z' } },
      m.ports,
    );
    const iso = ports();
    await runWorkflow(
      reminder({ until: 'input.sendAt' }),
      { input: { sendAt: '2026-12-25T09:00:00Z' } },
      iso.ports,
    );
    expect([...m.waited, ...iso.waited].map((w) => new Date(w.until).toISOString())).toEqual([
      '2026-12-24T09:00:00.000Z',
      '2026-12-25T09:00:00.000Z',
    ]);
  });

  it('fails when its expression gives no time', async () => {
    const m = ports();
    await expect(
      runWorkflow(reminder({ until: 'input.sendAt' }), { input: { sendAt: 'next tuesday' } }, m.ports),
    ).rejects.toThrow('Delay "Cool off": input.sendAt did not give a time (a timestamp or an ISO date)');
    expect(m.waited).toEqual([]);
    expect(m.asked.map((a) => a.nodeId)).toEqual(['draft']);
  });

  it('stops the run while it waits: node_waiting, no node_failed, nothing after it', async () => {
    const m = ports();
    m.ports.waits!.delay = async (step) => {
      throw new RunWaiting(step.nodeId);
    };
    await expect(runWorkflow(reminder({ seconds: 60 }), { input: 'Hi' }, m.ports)).rejects.toBeInstanceOf(
      RunWaiting,
    );
    expect(m.events.map((e) => `${e.type} ${e.nodeId}`)).toEqual([
      'node_started draft',
      'node_completed draft',
      'node_started wait',
      'node_waiting wait',
    ]);
  });

  it('fails where runs cannot wait (no wait ports)', async () => {
    const { ports: withWaits, asked } = ports();
    const { waits: _, ...noWaits } = withWaits;
    await expect(runWorkflow(reminder({ seconds: 60 }), { input: 'Hi' }, noWaits)).rejects.toThrow(
      'Delay "Cool off" cannot wait here: a workflow run by a map or a loop, or a test of a node, cannot wait',
    );
    expect(asked.map((a) => a.nodeId)).toEqual(['draft']);
  });
});
