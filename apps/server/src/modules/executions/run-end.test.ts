import type { NodeOutput } from '@crewline/contracts';
import { WorkflowRunError, type RunResult } from '@crewline/engine';
import { describe, expect, it, vi } from 'vitest';
import { recordingBus, runIds } from '../../testing/runner-fakes';
import { createEventOutbox } from './event-outbox';
import { completeRun, endStoppedRun, ownTokens, type AttemptEnd } from './run-end';
import { Interrupted } from './run-errors';
import { createRunLog } from './run-log';

const step = (tokens: number, reused = false): NodeOutput => ({
  content: 'x',
  metadata: {
    agentName: 'Writer',
    role: 'Writer',
    model: 'm',
    baseNodeId: 'n1',
    ...(reused ? { reused } : {}),
  },
  executionTime: 1,
  usage: { promptTokens: tokens, completionTokens: tokens, totalTokens: tokens * 2 },
});

function ending() {
  const { bus, published, inStatements } = recordingBus();
  const finish = vi.fn(async (..._args: unknown[]) => true as never);
  const release = vi.fn(async () => undefined);
  const completeWithStep = vi.fn(async (..._args: unknown[]) => true as never);
  const info = vi.fn();
  const warn = vi.fn();
  const error = vi.fn();
  const end: AttemptEnd = {
    repository: { finish, completeWithStep, release },
    ids: runIds,
    trigger: 'manual',
    attempt: 2,
    outbox: createEventOutbox(bus),
    runLog: createRunLog(),
    logger: { info, warn, error } as never,
  };
  return { end, finish, release, published, inStatements, info, warn, error };
}

describe("a run's own tokens", () => {
  it('leave out the steps a retry reused, and count them', () => {
    const totals = { totalTokens: 60, promptTokens: 30, completionTokens: 30 };
    const reused = step(10, true);
    const own = step(20);
    expect(ownTokens(totals, { n1: reused, n2: own }, { n1: reused, n2: own })).toEqual({
      totalTokens: 40,
      promptTokens: 20,
      completionTokens: 20,
      reusedSteps: 1,
      costUsd: undefined,
      unpricedModels: undefined,
    });
    expect(ownTokens(totals, {}, {})).toMatchObject({ totalTokens: 60, reusedSteps: 0 });
  });

  it('cost only the run’s own model calls, exactly, and unknown when one had no price', () => {
    const totals = { totalTokens: 90, promptTokens: 45, completionTokens: 45 };
    const priced = (tokens: number, costUsd: number | null, reused = false): NodeOutput => {
      const s = step(tokens, reused);
      return {
        ...s,
        usage: { ...s.usage, costUsd, ...(costUsd === null ? { unpricedModels: ['my-llama'] } : {}) },
      };
    };
    const reused = priced(10, 0.5, true);
    const output = { n1: reused, n2: priced(20, 0.1), n3: priced(30, 0.2) };
    // 0.1 + 0.2 in floating point is 0.30000000000000004: summed as micro-dollars it is 0.3.
    expect(ownTokens(totals, { n1: reused }, output)).toMatchObject({ costUsd: 0.3 });
    expect(ownTokens(totals, { n1: reused }, { ...output, n4: priced(5, null) })).toMatchObject({
      costUsd: null,
      unpricedModels: ['my-llama'],
    });
  });
});

describe('an attempt that ran to the end', () => {
  it('stores the run completed, with its metrics and the lines not stored yet, published by that statement', async () => {
    const e = ending();
    e.end.runLog.add('info', 'Writer finished');
    e.end.runLog.claim();
    e.end.outbox.soon({ type: 'workflow_execution_started', ...runIds });
    const result: RunResult = {
      output: { n1: step(10) },
      result: 'The draft',
      metrics: {
        totalTokens: 20,
        promptTokens: 10,
        completionTokens: 10,
        agentCount: 1,
        durationMs: 5,
      } as never,
    };
    await completeRun(e.end, { startedAt: new Date(Date.now() - 1000) }, result, {});
    const [id, attempt, row, notify] = e.finish.mock.calls[0] as [
      string,
      number,
      Record<string, unknown>,
      unknown,
    ];
    expect([id, attempt]).toEqual(['run-1', 2]);
    expect(row).toMatchObject({
      status: 'completed',
      output: result.output,
      result: 'The draft',
      metrics: { totalTokens: 20, reusedSteps: 0, attempts: 2, durationMs: expect.any(Number) },
      logs: [expect.objectContaining({ message: 'Run completed' })],
    });
    expect((row.metrics as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(1000);
    expect(notify).toBeDefined();
    expect(e.inStatements[0].map((event) => event.type)).toEqual([
      'workflow_execution_started',
      'workflow_execution_completed',
    ]);
  });
});

describe('an attempt stopped before the end', () => {
  it('fails the run with the readable error, naming the failed step, and publishes it', async () => {
    const e = ending();
    const message = 'The model refused';
    e.end.runLog.add('error', message, 'n1');
    await endStoppedRun(
      e.end,
      new WorkflowRunError(message),
      new AbortController().signal,
      new Map([[message, 'Draft']]),
    );
    expect(e.finish).toHaveBeenCalledWith('run-1', 2, {
      status: 'failed',
      error: message,
      failedStep: 'Draft',
      // Logged once: on its step already.
      logs: [expect.objectContaining({ level: 'error', message, nodeId: 'n1' })],
    });
    expect(e.published).toEqual([{ type: 'workflow_execution_failed', ...runIds, error: message }]);
  });

  it('logs an unexpected error for the run, and for the server', async () => {
    const e = ending();
    e.end.outbox.soon({ type: 'workflow_execution_started', ...runIds });
    await endStoppedRun(e.end, new Error('boom'), new AbortController().signal, new Map());
    expect(e.finish.mock.calls[0][2]).toMatchObject({
      error: 'The run stopped unexpectedly: boom',
      failedStep: null,
      logs: [expect.objectContaining({ level: 'error', message: 'The run stopped unexpectedly: boom' })],
    });
    expect(e.error).toHaveBeenCalledWith(
      expect.objectContaining({ executionId: 'run-1' }),
      'run failed unexpectedly',
    );
    // The started event goes out before the run's end.
    expect(e.published.map((event) => event.type)).toEqual([
      'workflow_execution_started',
      'workflow_execution_failed',
    ]);
  });

  it('interrupted, ends without failing the run; a stopping worker hands the run back', async () => {
    for (const reason of ['cancelled', 'superseded', 'shutdown'] as const) {
      const e = ending();
      const abort = new AbortController();
      abort.abort(new Interrupted(reason));
      await endStoppedRun(e.end, new Error('aborted'), abort.signal, new Map());
      expect(e.finish).not.toHaveBeenCalled();
      expect(e.release).toHaveBeenCalledTimes(reason === 'shutdown' ? 1 : 0);
      expect(e.info).toHaveBeenCalledWith({ executionId: 'run-1', reason }, 'run attempt interrupted');
    }
  });

  it('the database away: the run is left for the next claim, not failed', async () => {
    const e = ending();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await endStoppedRun(e.end, refused, new AbortController().signal, new Map());
    expect(e.finish).not.toHaveBeenCalled();
    expect(e.warn).toHaveBeenCalledWith(
      expect.objectContaining({ executionId: 'run-1' }),
      'run attempt interrupted: the database is unavailable',
    );
  });
});
