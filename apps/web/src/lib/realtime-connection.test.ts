import { realtimeEventSchema, type RealtimeEvent } from '@crewline/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  createRealtimeHub,
  parseServerMessage,
  REALTIME_EVENT_TYPES,
  RealtimeConnection,
  realtimeUrl,
  reconnectDelay,
  type RealtimeStatus,
  type WebSocketLike,
} from './realtime-connection';

describe('reconnectDelay', () => {
  it('doubles from 1 s for 5 attempts, then gives up', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => reconnectDelay(attempt))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
    expect(reconnectDelay(6)).toBeNull();
    expect(reconnectDelay(0)).toBeNull();
  });
});

describe('realtimeUrl', () => {
  it('uses the same host, wss on https, and the token as a query parameter', () => {
    expect(realtimeUrl({ protocol: 'http:', host: 'localhost:5173' }, 'abc')).toBe(
      'ws://localhost:5173/ws?token=abc',
    );
    expect(realtimeUrl({ protocol: 'https:', host: 'app.example.com' }, 'a b/c')).toBe(
      'wss://app.example.com/ws?token=a%20b%2Fc',
    );
  });
});

const org = { organizationId: 'org-1' };
const samples: RealtimeEvent[] = [
  { type: 'agent_created', ...org, agentId: 'a1' },
  { type: 'agent_updated', ...org, agentId: 'a1' },
  { type: 'agent_deleted', ...org, agentId: 'a1' },
  { type: 'workflow_execution_created', ...org, executionId: 'e1', workflowId: 'w1' },
  { type: 'workflow_execution_started', ...org, executionId: 'e1', workflowId: 'w1' },
  { type: 'workflow_execution_completed', ...org, executionId: 'e1', workflowId: 'w1' },
  { type: 'workflow_execution_failed', ...org, executionId: 'e1', workflowId: 'w1', error: 'boom' },
  { type: 'workflow_execution_cancelled', ...org, executionId: 'e1', workflowId: 'w1' },
  {
    type: 'execution_node_started',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'n1',
    baseNodeId: 'n1',
  },
  {
    type: 'execution_node_completed',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'n1',
    baseNodeId: 'n1',
    executionTime: 1234,
    totalTokens: 56,
  },
  {
    type: 'execution_node_failed',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'n2',
    baseNodeId: 'n2',
    error: 'OpenAI answered 500: overloaded',
  },
  {
    type: 'workflow_trigger_failed',
    ...org,
    workflowId: 'w1',
    error: 'This workflow is paused and cannot be run.',
  },
  { type: 'microsoft_connection_broken', ...org },
  { type: 'organization_members_changed', ...org },
  { type: 'subscription_updated', ...org },
  { type: 'knowledge_document_updated', ...org, knowledgeBaseId: 'kb1', documentId: 'd1' },
  {
    type: 'execution_node_delta',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'n1',
    baseNodeId: 'n1',
    offset: 12,
    text: 'the next words',
  },
  {
    type: 'execution_node_skipped',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'n3',
    baseNodeId: 'n3',
  },
  {
    type: 'execution_node_items',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'each',
    baseNodeId: 'each',
    total: 20,
  },
  {
    type: 'workflow_execution_waiting',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    waiting: {
      kind: 'approval',
      nodeId: 'approve',
      title: 'Refund over 500 €',
      since: '2026-01-01T10:00:00.000Z',
      until: null,
      approvalId: 'ap1',
    },
  },
  {
    type: 'execution_node_waiting',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    nodeId: 'approve',
    baseNodeId: 'approve',
  },
  { type: 'approval_requested', ...org, executionId: 'e1', workflowId: 'w1', approvalId: 'ap1' },
  {
    type: 'approval_decided',
    ...org,
    executionId: 'e1',
    workflowId: 'w1',
    approvalId: 'ap1',
    status: 'approved',
  },
];

describe('parseServerMessage', () => {
  it('knows every event type of the contracts', () => {
    const contractTypes = realtimeEventSchema.options.map((option) => option.shape.type.value);
    expect([...REALTIME_EVENT_TYPES].sort()).toEqual([...contractTypes].sort());
    expect(samples.map((sample) => sample.type).sort()).toEqual([...contractTypes].sort());
  });

  it('accepts exactly what the contract schema accepts', () => {
    for (const sample of samples) {
      expect(realtimeEventSchema.safeParse(sample).success).toBe(true);
      expect(parseServerMessage(JSON.stringify(sample))).toEqual(sample);
      // Drop each field in turn: both the schema and the parser reject it.
      for (const field of Object.keys(sample)) {
        const broken: Record<string, unknown> = { ...sample };
        delete broken[field];
        expect(realtimeEventSchema.safeParse(broken).success).toBe(false);
        expect(parseServerMessage(JSON.stringify(broken))).toBeNull();
      }
    }
    const wrongKind = { ...samples[9], executionTime: '12' };
    expect(realtimeEventSchema.safeParse(wrongKind).success).toBe(false);
    expect(parseServerMessage(JSON.stringify(wrongKind))).toBeNull();
    // Fields the contracts do not name are dropped.
    expect(parseServerMessage(JSON.stringify({ ...samples[10], extra: 'x' }))).toEqual(samples[10]);
  });

  it('reads the other server messages and rejects junk', () => {
    expect(parseServerMessage('{"type":"pong"}')).toEqual({ type: 'pong' });
    expect(parseServerMessage('{"type":"subscribed","organizationId":"o"}')).toEqual({
      type: 'subscribed',
      organizationId: 'o',
    });
    expect(parseServerMessage('{"type":"error","message":"nope"}')).toEqual({
      type: 'error',
      message: 'nope',
    });
    expect(parseServerMessage('{"type":"error"}')).toEqual({ type: 'error', message: '' });
    for (const junk of ['not json', '[]', 'null', '42', '{"type":"unknown"}', '{}']) {
      expect(parseServerMessage(junk)).toBeNull();
    }
    expect(parseServerMessage(new ArrayBuffer(2))).toBeNull();
  });
});

class FakeWebSocket implements WebSocketLike {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closedByClient = false;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }

  // server side
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  fail(code = 1006) {
    this.readyState = 3;
    this.onerror?.({} as Event);
    this.onclose?.({ code } as CloseEvent);
  }
  receive(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent);
  }
}

describe('RealtimeConnection', () => {
  let events: RealtimeEvent[];
  let statuses: RealtimeStatus[];
  let warn: ReturnType<typeof vi.fn<(...args: unknown[]) => void>>;

  function connect() {
    const connection = new RealtimeConnection({
      url: 'ws://host/ws?token=t',
      organizationId: 'org-1',
      createSocket: (url) => new FakeWebSocket(url),
      onEvent: (event) => events.push(event),
      onStatus: (status) => statuses.push(status),
      warn,
    });
    connection.start();
    return connection;
  }
  const sockets = () => FakeWebSocket.instances;
  const last = () => sockets()[sockets().length - 1];

  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.instances = [];
    events = [];
    statuses = [];
    warn = vi.fn<(...args: unknown[]) => void>();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('subscribes to the organization after open and pings every 30 s while open', () => {
    const connection = connect();
    expect(sockets()).toHaveLength(1);
    expect(last().url).toBe('ws://host/ws?token=t');
    expect(connection.status).toBe('connecting');
    expect(last().sent).toEqual([]);

    last().open();
    expect(connection.status).toBe('open');
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }]);

    vi.advanceTimersByTime(29_999);
    expect(last().sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }, { type: 'ping' }]);
    vi.advanceTimersByTime(60_000);
    expect(last().sent.filter((m) => (m as { type: string }).type === 'ping')).toHaveLength(3);

    // No pings once the socket closed.
    const first = last();
    first.fail();
    vi.advanceTimersByTime(90_000);
    expect(first.sent.filter((m) => (m as { type: string }).type === 'ping')).toHaveLength(3);
    connection.close();
  });

  it('watches its workflows once subscribed, again on every new connection, and on each change', () => {
    const connection = connect();
    connection.setWatching(['wf-1']);
    last().open();
    // Not before the subscription is accepted: the server refuses a watch in an organization not followed.
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }]);
    last().receive({ type: 'subscribed', organizationId: 'org-1' });
    const watch = (ids: string[]) => ({ type: 'watch', organizationId: 'org-1', workflowIds: ids });
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }, watch(['wf-1'])]);

    connection.setWatching(['wf-1', 'wf-2', 'wf-2']);
    connection.setWatching(['wf-1', 'wf-2']);
    expect(last().sent.slice(2)).toEqual([watch(['wf-1', 'wf-2'])]);

    last().fail();
    vi.advanceTimersByTime(1000);
    last().open();
    last().receive({ type: 'subscribed', organizationId: 'org-1' });
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }, watch(['wf-1', 'wf-2'])]);
    connection.setWatching([]);
    expect(last().sent.at(-1)).toEqual(watch([]));
    connection.close();
  });

  it('reconnects after 1, 2, 4, 8 and 16 s, then gives up', () => {
    const connection = connect();
    last().fail(); // the first connection never opened
    const expected = [1000, 2000, 4000, 8000, 16000];
    for (const [index, delay] of expected.entries()) {
      expect(sockets()).toHaveLength(index + 1);
      vi.advanceTimersByTime(delay - 1);
      expect(sockets()).toHaveLength(index + 1);
      expect(connection.status).toBe('connecting');
      vi.advanceTimersByTime(1);
      expect(sockets()).toHaveLength(index + 2);
      last().fail();
    }
    expect(connection.reconnectAttempts).toBe(5);
    expect(connection.status).toBe('closed');
    vi.advanceTimersByTime(10 * 60_000);
    expect(sockets()).toHaveLength(6); // the first try plus 5 reconnects
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('gave up'));
    expect(statuses.at(-1)).toBe('closed');
  });

  it('resets the attempt count on a successful open', () => {
    const connection = connect();
    last().fail();
    vi.advanceTimersByTime(1000);
    last().fail();
    vi.advanceTimersByTime(2000);
    last().fail();
    vi.advanceTimersByTime(4000);
    expect(sockets()).toHaveLength(4);
    expect(connection.reconnectAttempts).toBe(3);

    last().open();
    expect(connection.reconnectAttempts).toBe(0);
    expect(statuses).toEqual(['connecting', 'open']);

    // Dropped again: the schedule starts over at 1 s.
    last().fail();
    vi.advanceTimersByTime(999);
    expect(sockets()).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(sockets()).toHaveLength(5);
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }]);
    connection.close();
  });

  it('delivers parsed events, ignores the rest and only logs bad frames', () => {
    const connection = connect();
    last().open();
    last().receive({ type: 'subscribed', organizationId: 'org-1' });
    last().receive({ type: 'pong' });
    last().receive(samples[5]);
    last().receive('garbage');
    last().receive({ type: 'error', message: 'You are not a member of this organization' });
    expect(events).toEqual([samples[5]]);
    expect(warn).toHaveBeenCalledTimes(2);
    connection.close();
  });

  it('a handler that throws is only logged', () => {
    const connection = new RealtimeConnection({
      url: 'ws://host/ws',
      organizationId: 'org-1',
      createSocket: (url) => new FakeWebSocket(url),
      onEvent: () => {
        throw new Error('handler broke');
      },
      warn,
    });
    connection.start();
    last().open();
    expect(() => last().receive(samples[0])).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
    connection.close();
  });

  it('logs a socket that cannot be created and retries on the schedule', () => {
    let calls = 0;
    const connection = new RealtimeConnection({
      url: 'ws://host/ws',
      organizationId: 'org-1',
      createSocket: (url) => {
        calls += 1;
        if (calls === 1) throw new Error('SecurityError');
        return new FakeWebSocket(url);
      },
      onEvent: () => {},
      warn,
    });
    connection.start();
    expect(warn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(sockets()).toHaveLength(1);
    connection.close();
  });

  it('does not retry a refused token (close code 4401) and reports it', () => {
    const onUnauthorized = vi.fn();
    const connection = new RealtimeConnection({
      url: 'ws://host/ws',
      organizationId: 'org-1',
      createSocket: (url) => new FakeWebSocket(url),
      onEvent: () => {},
      onUnauthorized,
      warn,
    });
    connection.start();
    last().fail(4401);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(connection.status).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
  });

  it('waits a minute after a refusal for too many open connections (4429), giving up after 5 in a row', () => {
    const connection = connect();
    for (let refusal = 1; refusal <= 5; refusal++) {
      // The server accepts the upgrade, then closes at once: the open must not bring back the 1 s retry.
      last().open();
      last().fail(4429);
      vi.advanceTimersByTime(59_999);
      expect(sockets()).toHaveLength(refusal);
      expect(connection.status).toBe('connecting');
      vi.advanceTimersByTime(1);
      expect(sockets()).toHaveLength(refusal + 1);
    }
    last().open();
    last().fail(4429);
    expect(connection.status).toBe('closed');
    vi.advanceTimersByTime(10 * 60_000);
    expect(sockets()).toHaveLength(6);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('gave up'));
  });

  it('starts the count of 4429 refusals over once a subscription is accepted', () => {
    const connection = connect();
    for (let refusal = 1; refusal <= 5; refusal++) {
      last().open();
      last().fail(4429);
      vi.advanceTimersByTime(60_000);
    }
    last().open();
    last().receive({ type: 'subscribed', organizationId: 'org-1' });
    last().fail(4429);
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(7);
    expect(connection.status).toBe('connecting');
    connection.close();
  });

  it('close() stops everything: no reconnect, no ping, socket closed', () => {
    const connection = connect();
    last().open();
    const socket = last();
    connection.close();
    expect(socket.closedByClient).toBe(true);
    expect(connection.status).toBe('closed');
    vi.advanceTimersByTime(10 * 60_000);
    expect(sockets()).toHaveLength(1);
    expect(socket.sent).toEqual([{ type: 'subscribe', organizationId: 'org-1' }]);

    // Closing while a reconnect is pending cancels it.
    const other = connect();
    last().fail();
    other.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(2);
  });
});

describe('createRealtimeHub', () => {
  it('delivers events to matching subscriptions and tracks the status', () => {
    const hub = createRealtimeHub(() => {});
    const all: string[] = [];
    const agents: string[] = [];
    const unsubscribeAll = hub.subscribe('*', (event) => all.push(event.type));
    hub.subscribe(['agent_created', 'agent_deleted'], (event) => agents.push(event.type));
    hub.subscribe(['agent_created'], () => {
      throw new Error('a broken screen does not stop the others');
    });
    for (const sample of samples) hub.emit(sample);
    expect(all).toHaveLength(samples.length);
    expect(agents).toEqual(['agent_created', 'agent_deleted']);

    unsubscribeAll();
    hub.emit(samples[0]);
    expect(all).toHaveLength(samples.length);

    const onStatus = vi.fn();
    hub.subscribeStatus(onStatus);
    expect(hub.getStatus()).toBe('closed');
    hub.setStatus('open');
    hub.setStatus('open');
    expect(hub.getStatus()).toBe('open');
    expect(onStatus).toHaveBeenCalledTimes(1);
  });

  it('counts the screens watching each workflow and says when the list changes', () => {
    const hub = createRealtimeHub(() => {});
    const changed = vi.fn();
    hub.subscribeWatching(changed);
    const builder = hub.watch('wf-1');
    const details = hub.watch('wf-1');
    expect(hub.watching()).toEqual(['wf-1']);
    expect(changed).toHaveBeenCalledTimes(1);
    builder();
    builder();
    expect(hub.watching()).toEqual(['wf-1']);
    details();
    expect(hub.watching()).toEqual([]);
    expect(changed).toHaveBeenCalledTimes(2);
  });
});
