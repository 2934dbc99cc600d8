import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '@crewline/contracts';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { createEventBus, createPgEventBus, type EventBus, type PgEventBus } from '../events';
import { channels, type RunControl } from './channels';
import {
  deliverReturnedRows,
  notificationParameters,
  notified,
  notifiedByParameters,
  wakeUpColumn,
} from './statement';

const notes = pgTable('statement_notes', { id: integer('id').primaryKey(), v: text('v') });

let database: TestDb;
let pgBus: PgEventBus;

beforeAll(async () => {
  database = await createTestDb();
  await database.pool.query('create table statement_notes (id integer primary key, v text)');
  await database.pool.query(`insert into statement_notes values (1, 'a')`);
  pgBus = createPgEventBus({
    databaseUrl: database.url,
    pool: database.pool,
    logger: { info: () => undefined, warn: () => undefined },
  });
  await pgBus.start();
});
afterAll(async () => {
  await pgBus?.stop();
  await database?.close();
});

const event = (): RealtimeEvent => ({ type: 'agent_created', organizationId: 'org', agentId: randomUUID() });
const control = (): RunControl => ({ type: 'queued', executionId: randomUUID() });

/** What `bus` hears on the events and run-control channels. */
function hear(bus: EventBus) {
  const heard = { events: [] as RealtimeEvent[], runs: [] as RunControl[] };
  bus.listen(channels.events, { onNotify: (events) => heard.events.push(...events) });
  bus.listen(channels.runs, { onNotify: (c) => heard.runs.push(c) });
  return heard;
}

/** An update of row `id` (1 exists, 2 does not) returning `column`, as repositories write them. */
const update = (id: number, column: ReturnType<typeof notified>) =>
  database.db
    .update(notes)
    .set({ v: 'b' })
    .where(eq(notes.id, id))
    .returning({ id: notes.id, notified: column });

describe.each([
  ['the Postgres bus', () => pgBus as EventBus],
  ['the in-process bus', () => createEventBus() as EventBus],
])('a statement notification of %s', (_name, makeBus) => {
  it('is sent by a statement that changes a row, never by one that changes none, and reads as null', async () => {
    const bus = makeBus();
    const heard = hear(bus);
    const [unsent, sent] = [event(), event()];
    expect(await update(2, notified(bus.statementNotification(unsent)))).toEqual([]);
    expect(await update(1, notified(bus.statementNotification(sent)))).toEqual([{ id: 1, notified: null }]);
    await vi.waitFor(() => expect(heard.events).toEqual([sent]));
  });

  it('carries notifications of several channels in one column, and in a prepared statement', async () => {
    const bus = makeBus();
    const heard = hear(bus);
    const [first, second] = [event(), control()];
    await update(1, notified(bus.statementNotification(first), bus.inStatement(channels.runs, second)));
    await vi.waitFor(() => expect(heard).toEqual({ events: [first], runs: [second] }));

    const prepared = update(1, notifiedByParameters()).prepare(`notes_${randomUUID().slice(0, 8)}`);
    const [third, fourth] = [event(), control()];
    await prepared.execute(
      notificationParameters(bus.statementNotification(third), bus.inStatement(channels.runs, fourth)),
    );
    // None at all: the same statement sends nothing.
    expect(await prepared.execute(notificationParameters())).toEqual([{ id: 1, notified: null }]);
    await vi.waitFor(() => expect(heard).toEqual({ events: [first, third], runs: [second, fourth] }));
  });

  it('is sent only when the transaction commits, after it', async () => {
    const bus = makeBus();
    const heard = hear(bus);
    const [rolledBack, committed] = [control(), control()];
    await database.db
      .transaction(async (tx) => {
        await tx
          .update(notes)
          .set({ v: 'c' })
          .where(eq(notes.id, 1))
          .returning({ notified: notified(bus.inStatement(channels.runs, rolledBack)) });
        tx.rollback();
      })
      .catch(() => undefined);
    await database.db.transaction(async (tx) => {
      await tx
        .update(notes)
        .set({ v: 'c' })
        .where(eq(notes.id, 1))
        .returning({ notified: notified(bus.inStatement(channels.runs, committed)) });
      // Not before the commit: a process hearing it must already see the row.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard.runs).toEqual([]);
    });
    await vi.waitFor(() => expect(heard.runs).toEqual([committed]));
  });

  it('is delivered from a raw statement through deliverReturnedRows', async () => {
    const bus = makeBus();
    const heard = hear(bus);
    const sent = control();
    const result = await database.db.execute(
      sql`update statement_notes set v = 'd' where id = 1 returning ${notified(bus.inStatement(channels.runs, sent))}`,
    );
    deliverReturnedRows(result.rows);
    await vi.waitFor(() => expect(heard.runs).toEqual([sent]));
  });
});

describe('a wake-up column', () => {
  it('sends the payload the row makes, on commit, whatever the bus', async () => {
    const heard: string[] = [];
    const off = pgBus.listen(channels.knowledge, { onNotify: (id) => heard.push(id) });
    await database.db
      .update(notes)
      .set({ v: 'e' })
      .where(eq(notes.id, 1))
      .returning({ woke: wakeUpColumn(channels.knowledge, sql<string>`"statement_notes"."v"`) });
    await vi.waitFor(() => expect(heard).toEqual(['e']));
    off();
  });
});
