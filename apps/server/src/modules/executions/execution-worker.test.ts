import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import { onRunCancelled } from './event-outbox';
import type { ExecutionRunner } from './execution-runner';
import { startExecutionWorker } from './execution-worker';

const ids = { organizationId: 'org', executionId: 'run-1', workflowId: 'flow' };

/** A runner whose queue is always empty: counts its claims and drains. */
function emptyRunner() {
  const calls = { claims: 0, drains: [] as number[] };
  const runner = {
    runNext: async () => {
      calls.claims++;
      return undefined;
    },
    drain: async (graceMs: number) => void calls.drains.push(graceMs),
  };
  return { runner: runner as unknown as ExecutionRunner, calls };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the run worker on run control', () => {
  it('wakes for a run queued or handed back, not for a cancel nor for the browser’s events', async () => {
    const bus = createEventBus();
    const { runner, calls } = emptyRunner();
    const worker = startExecutionWorker({ runner, bus, concurrency: 1, pollMs: 60_000, drainMs: 5 });
    await vi.waitFor(() => expect(calls.claims).toBe(1));

    bus.publish({ type: 'workflow_execution_created', ...ids });
    bus.send(channels.runs, { type: 'cancelled', executionId: 'run-1' });
    await settle();
    expect(calls.claims).toBe(1);

    bus.send(channels.runs, { type: 'queued', executionId: 'run-2' });
    await vi.waitFor(() => expect(calls.claims).toBe(2));
    bus.send(channels.runs, { type: 'handed_back', executionId: 'run-3' });
    await vi.waitFor(() => expect(calls.claims).toBe(3));

    await worker.stop();
    expect(calls.drains).toEqual([5]);
  });

  it('aborts a run on its run-control cancel, not on the browser’s cancelled event', () => {
    const bus = createEventBus();
    const cancelled: string[] = [];
    const off = onRunCancelled(bus, (executionId) => cancelled.push(executionId));
    bus.publish({ type: 'workflow_execution_cancelled', ...ids });
    bus.send(channels.runs, { type: 'queued', executionId: 'run-2' });
    bus.send(channels.runs, { type: 'cancelled', executionId: 'run-1' });
    off();
    bus.send(channels.runs, { type: 'cancelled', executionId: 'run-3' });
    expect(cancelled).toEqual(['run-1']);
  });
});
