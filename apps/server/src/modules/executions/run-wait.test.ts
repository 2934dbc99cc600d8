import { describe, expect, it } from 'vitest';
import type { Execution } from '@crewline/contracts';
import { createEventBus } from '../../platform/events';
import { waitForRunEnd } from './run-wait';

/** A run whose status the test moves, read as the executions service would answer it. */
function fakeRun(id = 'run-1') {
  const run = { id, status: 'running' as Execution['status'], result: null };
  let reads = 0;
  return {
    run,
    read: async () => {
      reads++;
      return { ...run } as unknown as Execution;
    },
    reads: () => reads,
  };
}

describe('waitForRunEnd', () => {
  it('wakes on the run’s ended event, not on another run’s', async () => {
    const bus = createEventBus();
    const { run, read, reads } = fakeRun();
    const waiting = waitForRunEnd({ events: bus, read, runId: run.id, timeoutMs: 5000, pollMs: 60_000 });
    await expect.poll(reads).toBe(1);
    run.status = 'completed';
    bus.publish({
      type: 'workflow_execution_completed',
      organizationId: 'o',
      executionId: 'other',
      workflowId: 'w',
    });
    expect(reads()).toBe(1);
    bus.publish({
      type: 'workflow_execution_completed',
      organizationId: 'o',
      executionId: run.id,
      workflowId: 'w',
    });
    expect((await waiting)?.status).toBe('completed');
  });

  it('reads the run again now and then, so a lost notification only delays the answer', async () => {
    const { run, read } = fakeRun();
    const waiting = waitForRunEnd({
      events: createEventBus(),
      read,
      runId: run.id,
      timeoutMs: 5000,
      pollMs: 20,
    });
    setTimeout(() => (run.status = 'failed'), 50);
    expect((await waiting)?.status).toBe('failed');
  });

  it('answers nothing when the time is up or the caller went away, and stops listening', async () => {
    const bus = createEventBus();
    const { run, read, reads } = fakeRun();
    expect(
      await waitForRunEnd({ events: bus, read, runId: run.id, timeoutMs: 30, pollMs: 60_000 }),
    ).toBeUndefined();
    const gone = new AbortController();
    const waiting = waitForRunEnd({ events: bus, read, runId: run.id, timeoutMs: 5000, signal: gone.signal });
    gone.abort();
    expect(await waiting).toBeUndefined();
    const before = reads();
    bus.publish({
      type: 'workflow_execution_completed',
      organizationId: 'o',
      executionId: run.id,
      workflowId: 'w',
    });
    expect(reads()).toBe(before);
  });
});
