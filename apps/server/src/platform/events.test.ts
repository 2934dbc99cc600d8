import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '@crewline/contracts';
import { createTestDb, type TestDb } from '../testing/test-db';
import {
  createEventBus,
  createPgEventBus,
  EVENTS_CHANNEL,
  SESSIONS_CHANNEL,
  type PgEventBus,
  type SessionChange,
} from './events';
import { channels } from './notifications/channels';
import { deliverReturnedRows } from './notifications/statement';

let database: TestDb;
const buses: PgEventBus[] = [];

beforeAll(async () => {
  database = await createTestDb();
});
afterAll(async () => {
  for (const bus of buses) await bus.stop();
  await database.close();
});

function silentLogger() {
  return { info: vi.fn(), warn: vi.fn() };
}

/** A started bus on the test database; each one is what one server process would run. */
async function startBus(logger = silentLogger(), alone = false) {
  const applicationName = `events-test-${randomUUID().slice(0, 8)}`;
  const bus = createPgEventBus({
    databaseUrl: database.url,
    pool: database.pool,
    logger,
    applicationName,
    alone,
  });
  buses.push(bus);
  await bus.start();
  return { bus, applicationName, logger };
}

function record(bus: PgEventBus) {
  const received: RealtimeEvent[] = [];
  bus.listen(channels.events, { onNotify: (events) => received.push(...events) });
  return received;
}

const agentEvent = (agentId = randomUUID()): RealtimeEvent => ({
  type: 'agent_created',
  organizationId: randomUUID(),
  agentId,
});

async function listenerPids(applicationName: string): Promise<number[]> {
  const { rows } = await database.pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  return rows.map((r) => r.pid);
}

describe('in-process event bus', () => {
  it('delivers to every subscriber, survives a failing one, and stops after unsubscribe', () => {
    const bus = createEventBus();
    const got: string[] = [];
    bus.listen(channels.events, {
      onNotify: () => {
        throw new Error('broken subscriber');
      },
    });
    const off = bus.listen(channels.events, { onNotify: (events) => got.push(...events.map((e) => e.type)) });
    bus.publish(agentEvent());
    off();
    bus.publish(agentEvent());
    expect(got).toEqual(['agent_created']);
  });

  it('delivers session changes the same way, beside the events', async () => {
    const bus = createEventBus();
    const got: SessionChange[] = [];
    const events: string[] = [];
    bus.listen(channels.events, { onNotify: (batch) => events.push(...batch.map((e) => e.type)) });
    bus.listen(channels.sessions, {
      onNotify: () => {
        throw new Error('broken subscriber');
      },
    });
    const off = bus.listen(channels.sessions, { onNotify: (change) => got.push(change) });
    const change: SessionChange = { type: 'session_ended', sessionId: randomUUID() };
    await bus.publishSessionChange(change);
    off();
    await bus.publishSessionChange(change);
    expect(got).toEqual([change]);
    expect(events).toEqual([]);
  });
});

describe('Postgres event bus', () => {
  it('delivers an event published by one process to the other, and to itself, exactly once', async () => {
    const { bus: first } = await startBus();
    const { bus: second } = await startBus();
    const atFirst = record(first);
    const atSecond = record(second);

    const event = agentEvent();
    await first.publish(event);
    // A later marker: once it has arrived, any duplicate of the first event would have too.
    const marker = agentEvent();
    await second.publish(marker);
    await vi.waitFor(() => {
      expect(atFirst).toContainEqual(marker);
      expect(atSecond).toContainEqual(marker);
    });
    expect(atSecond).toEqual([event, marker]);
    expect(atFirst).toEqual([event, marker]);
  });

  it('publishes an event for the statement that makes it true, after it, and only if a row changed', async () => {
    const { bus } = await startBus();
    const received = record(bus);
    const sent = agentEvent();
    const { key } = bus.statementNotification(sent);
    const statement = async (where: string) =>
      deliverReturnedRows(
        (
          await database.pool.query(
            `WITH t(n) AS (VALUES (1)) SELECT $1::text AS notified FROM t WHERE ${where}`,
            [key],
          )
        ).rows,
      );
    // No row: nothing is sent.
    await statement('n = 2');
    await statement('n = 1');
    // Too large for a NOTIFY: none is sent, as publish() would not send it either (logged).
    const huge = { ...agentEvent(), agentId: 'x'.repeat(8000) };
    deliverReturnedRows([{ notified: bus.statementNotification(huge).key }]);
    const marker = agentEvent();
    await bus.publish(marker);
    await vi.waitFor(() => expect(received).toContainEqual(marker));
    expect(received).toEqual([sent, marker]);
  });

  it('sends several events in one notification, delivered in order, and hands its own back as made', async () => {
    const { bus: first } = await startBus();
    const { bus: second } = await startBus();
    const atFirst = record(first);
    const atSecond = record(second);
    const events = [agentEvent(), agentEvent(), agentEvent()];
    deliverReturnedRows([{ notified: first.statementNotification(events).key }]);
    await vi.waitFor(() => expect(atSecond).toHaveLength(3));
    await vi.waitFor(() => expect(atFirst).toHaveLength(3));
    expect(atSecond).toEqual(events);
    // The process that made them delivers the very objects (no parsing again); another parses its copy.
    atFirst.forEach((event, i) => expect(event).toBe(events[i]));
    atSecond.forEach((event, i) => expect(event).not.toBe(events[i]));
  });

  it('alone on its database, tells only itself (after the commit), and still hears what statements send', async () => {
    const { bus } = await startBus(silentLogger(), true);
    // Another process on the database would hear every NOTIFY: it hears none of the lone one's.
    const { bus: observer } = await startBus();
    const [received, observed] = [record(bus), record(observer)];
    const wakeUps: string[] = [];
    bus.listen(channels.runs, { onNotify: (control) => wakeUps.push(control.executionId) });

    const published = agentEvent();
    await bus.publish(published);
    expect(received).toEqual([published]);
    const inStatement = agentEvent();
    const { key } = bus.statementNotification(inStatement);
    // Not before its statement's row is back (its commit), and only if the statement changed a row.
    expect(received).toEqual([published]);
    deliverReturnedRows([{ notified: key }]);
    expect(received).toEqual([published, inStatement]);
    deliverReturnedRows([]);
    expect(received).toHaveLength(2);
    expect(received[1]).toBe(inStatement);

    // A wake-up the statement itself sends (a queued document, a decided approval's run) still arrives.
    const executionId = randomUUID();
    await database.pool.query('SELECT pg_notify($1, $2)', [
      channels.runs.name,
      channels.runs.encode({ type: 'queued', executionId }),
    ]);
    await vi.waitFor(() => expect(wakeUps).toEqual([executionId]));

    // A later NOTIFY reaches both: by then any of the lone bus's would have reached the observer, and
    // its own events would have come back to it a second time.
    const marker = agentEvent();
    await observer.publish(marker);
    await vi.waitFor(() => expect(observed).toContainEqual(marker));
    await vi.waitFor(() => expect(received).toContainEqual(marker));
    expect(observed).toEqual([marker]);
    expect(received).toEqual([published, inStatement, marker]);
  });

  it('drops notifications that are not realtime events, with a log line', async () => {
    const { bus, logger } = await startBus();
    const received = record(bus);
    await bus.notify(EVENTS_CHANNEL, 'not json');
    await bus.notify(EVENTS_CHANNEL, JSON.stringify({ type: 'agent_created', organizationId: 'x' }));
    const valid = agentEvent();
    await bus.publish(valid);
    await vi.waitFor(() => expect(received).toEqual([valid]));
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('serves other channels over the same connection (job wake-ups)', async () => {
    const { bus, applicationName } = await startBus();
    const wakeUps: string[] = [];
    bus.onChannel('crewline_jobs', (payload) => wakeUps.push(payload));
    await vi.waitFor(async () => {
      await bus.notify('crewline_jobs', 'job-1');
      expect(wakeUps).toContain('job-1');
    });
    expect(await listenerPids(applicationName)).toHaveLength(1);
    expect(() => bus.onChannel('bad; DROP TABLE users', () => undefined)).toThrow(
      /invalid notification channel/,
    );
  });

  it('reconnects after its connection is killed (Postgres restart) and keeps delivering', async () => {
    const { bus, applicationName, logger } = await startBus();
    const received = record(bus);
    const missed = vi.fn();
    bus.onChannel('crewline_jobs', { onNotify: () => undefined, onMissed: missed });
    const [before] = await listenerPids(applicationName);
    expect(before).toBeDefined();

    await database.pool.query('SELECT pg_terminate_backend($1)', [before]);
    // Notifications sent while it is away are lost by design; wait for the new connection.
    await vi.waitFor(
      async () => {
        const pids = await listenerPids(applicationName);
        expect(pids).toHaveLength(1);
        expect(pids[0]).not.toBe(before);
        expect(missed).toHaveBeenCalled();
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('reconnecting'));

    const event = agentEvent();
    await bus.publish(event);
    await vi.waitFor(() => expect(received).toEqual([event]));
  });

  it('stop() ends the listener: no connection left, nothing delivered afterwards', async () => {
    const { bus, applicationName } = await startBus();
    const { bus: other } = await startBus();
    const received = record(bus);
    await bus.stop();
    await vi.waitFor(async () => expect(await listenerPids(applicationName)).toEqual([]));

    const atOther = record(other);
    const event = agentEvent();
    await other.publish(event);
    await vi.waitFor(() => expect(atOther).toEqual([event]));
    expect(received).toEqual([]);
  });

  it('sends a session change made in a transaction to every process on commit, and never on rollback', async () => {
    const { bus: first } = await startBus();
    const { bus: second } = await startBus();
    const changes = (bus: PgEventBus) => {
      const got: SessionChange[] = [];
      bus.listen(channels.sessions, { onNotify: (change) => got.push(change) });
      return got;
    };
    const [atFirst, atSecond] = [changes(first), changes(second)];
    const events = record(second);

    async function inTransaction(change: SessionChange, end: 'COMMIT' | 'ROLLBACK') {
      const client = await database.pool.connect();
      try {
        await client.query('BEGIN');
        await first.publishSessionChange(change, {
          executeSql: (text, values) => client.query(text, values),
        });
        // Not before the commit: a process that hears it must already see the revoked session.
        const marker = agentEvent();
        await first.publish(marker);
        await vi.waitFor(() => expect(events).toContainEqual(marker));
        expect(atSecond).toEqual([]);
        await client.query(end);
      } finally {
        client.release();
      }
    }

    const rolledBack: SessionChange = { type: 'session_ended', sessionId: randomUUID() };
    await inTransaction(rolledBack, 'ROLLBACK');
    const committed: SessionChange = {
      type: 'user_sessions_ended',
      userId: randomUUID(),
      exceptSessionId: randomUUID(),
    };
    await inTransaction(committed, 'COMMIT');
    const outside: SessionChange = {
      type: 'membership_ended',
      userId: randomUUID(),
      organizationId: randomUUID(),
    };
    await second.publishSessionChange(outside);
    await vi.waitFor(() => {
      expect(atFirst).toEqual([committed, outside]);
      expect(atSecond).toEqual([committed, outside]);
    });
  });

  it('drops session notifications it cannot read, and reports changes missed while reconnecting', async () => {
    const { bus, applicationName, logger } = await startBus();
    const got: SessionChange[] = [];
    const missed = vi.fn();
    bus.listen(channels.sessions, { onNotify: (change) => got.push(change), onMissed: missed });
    await bus.notify(SESSIONS_CHANNEL, 'not json');
    await bus.notify(SESSIONS_CHANNEL, JSON.stringify({ type: 'session_ended' }));
    const valid: SessionChange = { type: 'session_ended', sessionId: randomUUID() };
    await bus.publishSessionChange(valid);
    await vi.waitFor(() => expect(got).toEqual([valid]));
    expect(logger.warn).toHaveBeenCalledTimes(2);

    const [before] = await listenerPids(applicationName);
    await database.pool.query('SELECT pg_terminate_backend($1)', [before]);
    await vi.waitFor(() => expect(missed).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 100 });
  });

  it('announces watched workflows to every process, in as many notifications as they need', async () => {
    const { bus: first } = await startBus();
    const { bus: second, logger } = await startBus();
    const heard: string[] = [];
    second.listen(channels.watch, { onNotify: (keys) => heard.push(...keys) });
    // 300 keys of 73 bytes: more than one NOTIFY's worth.
    const keys = Array.from({ length: 300 }, () => `${randomUUID()}/${randomUUID()}`);
    await first.publishWatching(keys);
    await vi.waitFor(() => expect(heard).toHaveLength(300));
    expect(heard).toEqual(keys);
    await database.pool.query(`SELECT pg_notify('crewline_watch', '{"not":"a list"}')`);
    await vi.waitFor(() =>
      expect(logger.warn).toHaveBeenCalledWith(
        { channel: 'crewline_watch' },
        'dropped an invalid watch notification',
      ),
    );
  });

  it('logs instead of throwing when publishing fails', async () => {
    const logger = silentLogger();
    const pool = { query: vi.fn().mockRejectedValue(new Error('connection refused')) };
    const bus = createPgEventBus({
      databaseUrl: database.url,
      pool: pool as unknown as TestDb['pool'],
      logger,
    });
    await expect(bus.publish(agentEvent())).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ channels: [EVENTS_CHANNEL] }),
      'could not publish notifications',
    );
  });
});
