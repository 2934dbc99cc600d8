import type { RealtimeEvent } from '@crewline/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventBus } from '../../platform/events';
import { recordingBus, runIds } from '../../testing/runner-fakes';
import { createEventOutbox, STARTED_EVENT_WAIT_MS } from './event-outbox';

const started: RealtimeEvent = { type: 'workflow_execution_started', ...runIds };
const stepStarted: RealtimeEvent = {
  type: 'execution_node_started',
  ...runIds,
  nodeId: 'n1',
  baseNodeId: 'n1',
  agentName: 'Writer',
};
const completed: RealtimeEvent = { type: 'workflow_execution_completed', ...runIds };

describe('the event outbox of an attempt', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a started event on its own once it waited STARTED_EVENT_WAIT_MS', async () => {
    const { bus, published } = recordingBus();
    const outbox = createEventOutbox(bus);
    outbox.soon(started);
    outbox.soon(stepStarted);
    await vi.advanceTimersByTimeAsync(STARTED_EVENT_WAIT_MS - 1);
    expect(published).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(published).toEqual([started, stepStarted]);
  });

  it("puts waiting events in the next statement's notification, before its own, and no longer sends them alone", async () => {
    const { bus, published, inStatements } = recordingBus();
    const outbox = createEventOutbox(bus);
    outbox.soon(started);
    outbox.soon(stepStarted);
    const { notify } = await outbox.withStatement(completed);
    expect(notify).toBeDefined();
    expect(inStatements).toEqual([[started, stepStarted, completed]]);
    await vi.advanceTimersByTimeAsync(STARTED_EVENT_WAIT_MS * 4);
    expect(published).toEqual([]);
  });

  it('flush sends the waiting events at once, in order, then nothing more', async () => {
    const { bus, published } = recordingBus();
    const outbox = createEventOutbox(bus);
    outbox.soon(started);
    outbox.soon(stepStarted);
    await outbox.flush();
    expect(published).toEqual([started, stepStarted]);
    await vi.advanceTimersByTimeAsync(STARTED_EVENT_WAIT_MS * 4);
    expect(published).toHaveLength(2);
  });

  it("a statement's notification waits for the started events a timer flush is still sending", async () => {
    const sent: RealtimeEvent[] = [];
    const order: string[] = [];
    let land!: () => void;
    const slow = {
      // The first send (the flush's) lands only when the test says so: a loaded database.
      publish: (event: RealtimeEvent) =>
        new Promise<void>((resolve) => {
          const done = () => (sent.push(event), order.push(`sent ${event.type}`), resolve());
          if (sent.length === 0 && !land) land = done;
          else done();
        }),
      statementNotification: (events: RealtimeEvent[]) => (order.push('statement'), { key: '', events }),
    } as unknown as EventBus;
    const outbox = createEventOutbox(slow);
    outbox.soon(started);
    outbox.soon(stepStarted);
    await vi.advanceTimersByTimeAsync(STARTED_EVENT_WAIT_MS);
    const statement = outbox.withStatement(completed);
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual([]);
    land();
    await statement;
    expect(order).toEqual(['sent workflow_execution_started', 'sent execution_node_started', 'statement']);
  });

  it('close drops the wait: an attempt that ended sends nothing later', async () => {
    const { bus, published } = recordingBus();
    const outbox = createEventOutbox(bus);
    outbox.soon(started);
    outbox.close();
    await vi.advanceTimersByTimeAsync(STARTED_EVENT_WAIT_MS * 4);
    expect(published).toEqual([]);
  });

  it('publish never rejects, even when the bus does', async () => {
    const failing = {
      publish: () => Promise.reject(new Error('connection lost')),
    } as unknown as EventBus;
    await expect(createEventOutbox(failing).publish(completed)).resolves.toBeUndefined();
  });
});
