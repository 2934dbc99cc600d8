import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { RealtimeEvent } from '@crewline/contracts';
import { createEventBus } from '../../platform/events';
import { createRealtimeHub } from './realtime.hub';

const organizationId = 'org-1';
const completed = (executionId: string): RealtimeEvent => ({
  type: 'workflow_execution_completed',
  organizationId,
  executionId,
  workflowId: 'wf-1',
});

/** A socket and its connection, recording what reaches the wire: frames in the order of writes. */
function client(name: string, log: string[]) {
  let corked = 0;
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    on: () => undefined,
    send: (data: string) =>
      log.push(`${name} ${corked > 0 ? 'held' : 'wrote'} ${JSON.parse(data).executionId}`),
  };
  const connection = {
    cork: () => void corked++,
    uncork: () => {
      corked--;
      log.push(`${name} flushed`);
    },
  };
  return { socket: socket as unknown as WebSocket, connection };
}

describe('the realtime hub', () => {
  it('writes the events delivered in one task to each socket together, once the task ends', async () => {
    const bus = createEventBus();
    const hub = createRealtimeHub(bus, {
      maxSocketsPerUser: 20,
      followableOrganizations: async () => new Map(),
      onCheckFailed: () => undefined,
    });
    const log: string[] = [];
    for (const name of ['a', 'b']) {
      const { socket, connection } = client(name, log);
      hub.track(socket, { sessionId: name, userId: name, organizationId }, connection);
      hub.join(socket, organizationId);
    }
    // Two notifications read from the database connection in one go.
    bus.publish(completed('run-1'));
    bus.publish(completed('run-2'));
    expect(log).toEqual(['a held run-1', 'b held run-1', 'a held run-2', 'b held run-2']);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(log.slice(4)).toEqual(['a flushed', 'b flushed']);
    // The next delivery is held and written the same way.
    bus.publish(completed('run-3'));
    await new Promise((resolve) => process.nextTick(resolve));
    expect(log.slice(6)).toEqual(['a held run-3', 'b held run-3', 'a flushed', 'b flushed']);
    hub.close();
  });
});
