import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterCommit } from '@crewline/db';
import type { Channel } from './channels';

/**
 * A notification made true by a statement, as a column of its RETURNING (`notified`): sent only if
 * the statement returns a row, and only once its transaction has committed (`afterCommit`: at once
 * for a statement outside a transaction, which committed as it came back). A bus makes it
 * (`EventBus.inStatement`); the repository puts it in the statement and knows nothing of buses.
 *
 * The column returns the notification's key, and reading it back hands the bus's `deliver` to
 * `afterCommit`: the Postgres bus then sends its NOTIFYs from its outbox, many in one statement
 * that waits for no disk (docs/decisions/0055-notifications-after-commit.md); the in-process bus
 * (tests, one process) delivers to its listeners.
 */
export type StatementNotification = { key: string };

/**
 * Notifications whose column was never read back (their statement changed no row): bounded, far
 * above those in flight at once (a statement is built, run and read back within its request).
 */
const PENDING_KEPT = 100_000;
const pending = new Map<string, () => void>();
const KEY_END = ';';

/** A statement's notification: `deliver` runs after the commit of the statement that returns its key. */
export function statementNotification(deliver: () => void): StatementNotification {
  const key = randomUUID();
  pending.set(key, deliver);
  if (pending.size > PENDING_KEPT) pending.delete(pending.keys().next().value!);
  return { key: key + KEY_END };
}

/**
 * Delivers the notifications of a returned `notified` column after the commit. The columns below do
 * it as drizzle reads the row; a raw `db.execute` passes its rows' values here.
 */
function deliverReturned(value: unknown): void {
  if (typeof value !== 'string' || value === '') return;
  for (const key of value.split(KEY_END)) {
    const deliver = pending.get(key);
    if (!deliver) continue;
    pending.delete(key);
    afterCommit(deliver);
  }
}

/** The column's decoder: the row's notifications are delivered, and the column reads as null. */
const delivered = (value: unknown): null => {
  deliverReturned(value);
  return null;
};

/** The notifications of a raw statement's returned rows (see deliverReturned). */
export function deliverReturnedRows(rows: Record<string, unknown>[]): void {
  for (const row of rows) for (const value of Object.values(row)) deliverReturned(value);
}

const keysOf = (notes: (StatementNotification | undefined)[]) =>
  notes.map((note) => note?.key ?? '').join('');

/**
 * The RETURNING column that sends `notes` once the statement's row is back (null without any).
 * E.g. `.returning({ id: runs.id, notified: notified(bus.inStatement(channels.runs, control)) })`.
 */
export function notified(...notes: (StatementNotification | undefined)[]): SQL<null> {
  const keys = keysOf(notes);
  if (keys === '') return sql<null>`null`;
  return sql`${keys}::text`.mapWith(delivered);
}

/**
 * `notified` in a statement built once (prepared): the notifications come as its parameter
 * (`notificationParameters`), any number of them, none for a statement that sends nothing.
 */
export const notifiedByParameters = () => sql`${sql.placeholder('notified')}::text`.mapWith(delivered);

/** The parameter of `notifiedByParameters` for `notes`. */
export function notificationParameters(...notes: (StatementNotification | undefined)[]) {
  return { notified: keysOf(notes) };
}

/**
 * A wake-up whose payload the returned row makes (e.g. a queued document's id, which the database
 * draws), sent by the statement on commit whatever the bus: only workers listen for these, and they
 * poll besides, so a process without LISTEN loses nothing by not hearing it.
 */
export function wakeUpColumn<Payload>(channel: Channel<Payload>, payload: SQL<string>): SQL<null> {
  return sql<null>`pg_notify(${channel.name}, ${payload})`;
}
