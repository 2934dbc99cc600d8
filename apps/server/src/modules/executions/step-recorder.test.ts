import type { NodeOutput } from '@crewline/contracts';
import type { AgentCall, EngineEvent } from '@crewline/engine';
import { describe, expect, it, vi } from 'vitest';
import { LlmCallError, newLlmTrace } from '../../platform/llm';
import { agentNamed, recordingBus, runIds } from '../../testing/runner-fakes';
import { createEventOutbox } from './event-outbox';
import type { StepRecord } from './executions.repository';
import { Interrupted } from './run-errors';
import { createRunLog } from './run-log';
import { createStepRecorder } from './step-recorder';

const writer = agentNamed('Writer');
const ref = { nodeId: 'n1', baseNodeId: 'n1', agentId: writer.id, kind: 'agent' as const };
const output: NodeOutput = {
  content: 'The draft',
  metadata: { agentName: 'Writer', role: 'Writer', model: 'gpt-4o-mini', baseNodeId: 'n1' },
  executionTime: 1500,
  usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30 },
};
const at = (iso: string) => new Date(iso).getTime();
const startedEvent: EngineEvent = { type: 'node_started', ...ref, startedAt: at('2026-01-01T10:00:00Z') };
const completedEvent: EngineEvent = {
  type: 'node_completed',
  ...ref,
  output,
  startedAt: at('2026-01-01T10:00:00Z'),
  completedAt: at('2026-01-01T10:00:01.500Z'),
};
/** The next step starting, after n1. */
const nextStarted: EngineEvent = {
  type: 'node_started',
  nodeId: 'n2',
  baseNodeId: 'n2',
  agentId: writer.id,
  kind: 'agent',
  startedAt: at('2026-01-01T10:00:02Z'),
};

function recorder(options: { sends?: boolean; stored?: () => Promise<boolean>; label?: string } = {}) {
  const { bus, published, inStatements } = recordingBus();
  const outbox = createEventOutbox(bus);
  const runLog = createRunLog();
  const order: string[] = [];
  const recordStep = vi.fn(async (..._args: [string, number, StepRecord, unknown]) => {
    order.push('stored');
    return options.stored ? options.stored() : true;
  });
  const recordFailedStep = vi.fn(async (..._args: unknown[]) => undefined);
  const deliver = vi.fn(async () => {
    order.push('delivered');
  });
  const failedSteps = new Map<string, string>();
  const abort = new AbortController();
  const warn = vi.fn();
  const steps = createStepRecorder({
    repository: { recordStep, recordFailedStep },
    ids: runIds,
    attempt: 2,
    outbox,
    runLog,
    delivery: { sends: () => options.sends ?? false, deliver },
    agents: new Map([[writer.id, writer]]),
    nodeData: new Map<string, Record<string, unknown>>([
      ['n1', options.label ? { label: options.label } : {}],
      ['route', { label: 'Route' }],
    ]),
    failedSteps,
    signal: abort.signal,
    logger: { warn } as never,
  });
  bus.publish = (event) => {
    order.push(`published ${event.type}`);
    published.push(event);
  };
  return {
    steps,
    published,
    inStatements,
    runLog,
    order,
    recordStep,
    recordFailedStep,
    failedSteps,
    abort,
    warn,
  };
}

const call = (nodeId: string, more: Partial<AgentCall> = {}): AgentCall => ({
  step: { nodeId, baseNodeId: nodeId.split('#')[0], agentId: writer.id, kind: 'agent' as const },
  nodeId,
  agent: { ...writer, role: 'Writer', goal: 'Write', backstory: null },
  system: 'You are Writer.',
  user: 'Write the draft.',
  ...more,
});

describe('a completed step', () => {
  it("is stored with its output, record, logs and the engine's times, and published by that statement with the waiting started events", async () => {
    const r = recorder();
    r.runLog.add('info', 'Run started');
    await r.steps.onStep(startedEvent);
    r.steps.made({ call: call('n1'), agent: writer, trace: newLlmTrace() });
    await r.steps.onStep(completedEvent);
    // Nothing else ran: it waits for what comes next, and the next step's start stores it first.
    expect(r.recordStep).not.toHaveBeenCalled();
    await r.steps.onStep(nextStarted);
    expect(r.recordStep).toHaveBeenCalledTimes(1);

    const [id, attempt, step] = r.recordStep.mock.calls[0];
    expect([id, attempt]).toEqual(['run-1', 2]);
    expect(step).toMatchObject({
      nodeId: 'n1',
      baseNodeId: 'n1',
      agentId: writer.id,
      delivery: null,
      output,
      metrics: { executionTime: 1500, promptTokens: 10, completionTokens: 20, totalTokens: 30 },
      startedAt: new Date('2026-01-01T10:00:00Z'),
      completedAt: new Date('2026-01-01T10:00:01.500Z'),
      record: expect.objectContaining({ agentName: 'Writer', answer: 'The draft' }),
    });
    expect(step.logs.map((l) => l.message)).toEqual(['Writer finished in 1500 ms']);
    expect(step.runLogs.map((l) => l.message)).toEqual(['Run started', 'Writer finished in 1500 ms']);
    expect(r.runLog.unstored()).toEqual([]);
    expect(r.inStatements.map((events) => events.map((e) => e.type))).toEqual([
      ['execution_node_started', 'execution_node_completed'],
    ]);
    expect(r.inStatements[0][0]).toMatchObject({ agentName: 'Writer' });
    expect(r.inStatements[0][1]).toMatchObject({ executionTime: 1500, totalTokens: 30 });
    expect(r.published).toEqual([]);
  });

  it('that was the last to run is handed to the run’s end once, and stored by nothing else', async () => {
    const r = recorder();
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(completedEvent);
    const parked = r.steps.takeParked();
    expect(parked?.record).toMatchObject({ nodeId: 'n1', output });
    expect(parked?.event).toMatchObject({ type: 'execution_node_completed', nodeId: 'n1' });
    expect(r.steps.takeParked()).toBeUndefined();
    await r.steps.storeParked();
    expect(r.recordStep).not.toHaveBeenCalled();
  });

  it('that finished while another step still runs is stored at once', async () => {
    const r = recorder();
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(nextStarted);
    await r.steps.onStep(completedEvent);
    expect(r.recordStep).toHaveBeenCalledTimes(1);
    expect(r.steps.takeParked()).toBeUndefined();
  });

  it('that sends its output: started event out first, stored as pending, then delivered, then published', async () => {
    const r = recorder({ sends: true });
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(completedEvent);
    expect(r.order).toEqual([
      'published execution_node_started',
      'stored',
      'delivered',
      'published execution_node_completed',
    ]);
    expect(r.recordStep.mock.calls[0][2].delivery).toBe('pending');
    expect(r.recordStep.mock.calls[0][3]).toBeUndefined();
    expect(r.inStatements).toEqual([]);
  });

  it('the run taken over by another attempt: not ours, so the attempt stops as superseded', async () => {
    const r = recorder({ stored: async () => false });
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(completedEvent);
    const stored = r.steps.onStep(nextStarted);
    await expect(stored).rejects.toBeInstanceOf(Interrupted);
    await stored.catch((error: Interrupted) => expect(error.reason).toBe('superseded'));
  });

  it('a store that failed gives its run log lines back, for the run end to store', async () => {
    const r = recorder({ stored: () => Promise.reject(new Error('connection lost')) });
    r.runLog.add('info', 'Run started');
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(completedEvent);
    await expect(r.steps.storeParked()).rejects.toThrow('connection lost');
    expect(r.runLog.unstored().map((l) => l.message)).toEqual(['Run started', 'Writer finished in 1500 ms']);
  });

  it("counts a hierarchical lead's delegations that ran in the lead's record", async () => {
    const r = recorder();
    r.steps.made({ call: call('n1', { coworkers: ['Editor'] }), agent: writer, trace: newLlmTrace() });
    const delegated: NodeOutput = { ...output, metadata: { ...output.metadata, delegatedBy: 'n1' } };
    await r.steps.onStep({ ...completedEvent, nodeId: 'n1#1', output: delegated });
    await r.steps.onStep(completedEvent);
    await r.steps.storeParked();
    const lead = r.recordStep.mock.calls[1][2];
    expect(lead.record).toMatchObject({ team: { coworkers: ['Editor'], delegations: 1 } });
  });
});

describe('a step that calls no model', () => {
  const route = { nodeId: 'route', baseNodeId: 'route', agentId: null, kind: 'condition' as const };
  const evaluation = {
    kind: 'condition' as const,
    evaluated: [{ name: 'Billing', expression: 'input.kind == "billing"', value: true }],
    result: { branch: 'billing' },
  };

  it('is stored with its kind and what it evaluated, and published with the branch it took', async () => {
    const r = recorder();
    await r.steps.onStep({ type: 'node_started', ...route, startedAt: at('2026-01-01T10:00:00Z') });
    await r.steps.onStep({
      type: 'node_completed',
      ...route,
      output: {
        ...output,
        content: '',
        kind: 'condition',
        data: { branch: 'billing' },
        metadata: {},
        executionTime: 0,
      },
      evaluation,
      startedAt: at('2026-01-01T10:00:00Z'),
      completedAt: at('2026-01-01T10:00:00Z'),
    });
    await r.steps.storeParked();
    const [, , step] = r.recordStep.mock.calls[0];
    expect(step).toMatchObject({
      nodeId: 'route',
      agentId: null,
      kind: 'condition',
      evaluation,
      record: undefined,
    });
    expect(step.logs.map((l) => l.message)).toEqual(['Route finished in 0 ms']);
    expect(r.inStatements[0].map((e) => [e.type, 'branch' in e ? e.branch : undefined])).toEqual([
      ['execution_node_started', undefined],
      ['execution_node_completed', 'billing'],
    ]);
  });

  it('a skipped step and a map’s size are announced with the next statement, and never stored', async () => {
    const r = recorder();
    await r.steps.onStep({
      type: 'node_skipped',
      nodeId: 'other',
      baseNodeId: 'other',
      agentId: null,
      kind: 'agent',
    });
    await r.steps.onStep({
      type: 'node_items',
      nodeId: 'each',
      baseNodeId: 'each',
      agentId: null,
      kind: 'map',
      total: 40,
    });
    await r.steps.onStep(startedEvent);
    await r.steps.onStep(completedEvent);
    await r.steps.storeParked();
    expect(r.recordStep).toHaveBeenCalledTimes(1);
    expect(r.inStatements[0]).toEqual([
      expect.objectContaining({ type: 'execution_node_skipped', nodeId: 'other' }),
      expect.objectContaining({ type: 'execution_node_items', nodeId: 'each', total: 40 }),
      expect.objectContaining({ type: 'execution_node_started' }),
      expect.objectContaining({ type: 'execution_node_completed' }),
    ]);
  });
});

describe('a failed step', () => {
  const failedEvent = (error: unknown): EngineEvent => ({
    type: 'node_failed',
    ...ref,
    error,
    startedAt: at('2026-01-01T10:00:00Z'),
    completedAt: at('2026-01-01T10:00:02Z'),
  });
  const refused = new LlmCallError('OpenAI refused the request: rate limited', 'openai', 'http', 429, 3);

  it('is stored as failed with the readable error and published, naming its step for the run', async () => {
    const r = recorder({ label: 'Draft' });
    await r.steps.onStep(startedEvent);
    r.steps.made({ call: call('n1'), agent: writer, trace: newLlmTrace() });
    await r.steps.onStep(failedEvent(refused));
    expect(r.recordFailedStep).toHaveBeenCalledWith('run-1', 2, {
      nodeId: 'n1',
      baseNodeId: 'n1',
      agentId: writer.id,
      kind: 'agent',
      error: refused.message,
      record: expect.objectContaining({ answer: null, agentName: 'Writer' }),
      logs: [expect.objectContaining({ level: 'error', message: refused.message, nodeId: 'n1' })],
      startedAt: new Date('2026-01-01T10:00:00Z'),
      completedAt: new Date('2026-01-01T10:00:02Z'),
    });
    expect(r.order).toEqual(['published execution_node_started', 'published execution_node_failed']);
    expect(r.published[1]).toEqual({
      type: 'execution_node_failed',
      ...runIds,
      nodeId: 'n1',
      baseNodeId: 'n1',
      error: refused.message,
    });
    expect(r.failedSteps.get(refused.message)).toBe('Draft');
    expect(r.warn).toHaveBeenCalledWith(
      expect.objectContaining({
        step: 'Draft',
        provider: 'openai',
        model: 'gpt-4o-mini',
        status: 429,
        attempts: 3,
      }),
      'model call failed',
    );
  });

  it('without a label, is named after its agent', async () => {
    const r = recorder();
    await r.steps.onStep(failedEvent(new Error('boom')));
    expect(r.failedSteps.get('The run stopped unexpectedly: boom')).toBe('Writer');
  });

  it('stores nothing when the attempt was interrupted: nothing failed', async () => {
    const r = recorder();
    await r.steps.onStep(failedEvent(new Interrupted('cancelled')));
    r.abort.abort(new Interrupted('cancelled'));
    await r.steps.onStep(failedEvent(new Error('aborted')));
    expect(r.recordFailedStep).not.toHaveBeenCalled();
    expect(r.published).toEqual([]);
  });

  it('a failed step that could not be stored is logged, and still published', async () => {
    const r = recorder();
    r.recordFailedStep.mockRejectedValueOnce(new Error('deadlock'));
    await r.steps.onStep(failedEvent(refused));
    expect(r.warn).toHaveBeenCalledWith(
      expect.objectContaining({ executionId: 'run-1' }),
      'failed step not stored',
    );
    expect(r.published.map((e) => e.type)).toEqual(['execution_node_failed']);
  });
});
