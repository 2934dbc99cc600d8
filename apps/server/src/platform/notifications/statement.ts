import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Channel } from './channels';

/**
 * A notification that leaves from the statement that makes it true, as a column of its RETURNING
 * (`notified`): sent only if the statement returns a row, in its transaction. A bus makes it
 * (`EventBus.inStatement`); the repository puts it in the statement and knows nothing of buses.
 *
 * - `sends`: the Postgres bus's NOTIFYs, `pg_notify(channel, payload)` each, which Postgres delivers
 *   at commit to every process (none for a rollback), at no round trip of their own.
 * - `local`: the in-process bus's (tests, one process, no LISTEN): the column returns this key, and
 *   reading it back delivers the notification at once, inside the statement's transaction.
 */
export type StatementNotification = {
  sends: { channel: string; payload: string }[];
  local?: string;
};

/** Notifications whose column was never read back (their statement changed no row): bounded. */
const PENDING_KEPT = 10_000;
const pending = new Map<string, () => void>();
const KEY_END = ';';

/** The in-process bus's notification: `deliver` runs when the statement's row comes back. */
export function localNotification(deliver: () => void): StatementNotification {
  const key = randomUUID();
  pending.set(key, deliver);
  if (pending.size > PENDING_KEPT) pending.delete(pending.keys().next().value!);
  return { sends: [], local: key + KEY_END };
}

/**
 * Delivers the in-process notifications of a returned `notified` column (a NOTIFY's column is empty).
 * The columns below do it as drizzle reads the row; a raw `db.execute` passes its rows' values here.
 */
function deliverReturned(value: unknown): void {
  if (typeof value !== 'string' || value === '') return;
  for (const key of value.split(KEY_END)) {
    const deliver = pending.get(key);
    if (!deliver) continue;
    pending.delete(key);
    deliver();
  }
}

/** The column's decoder: the row's notifications are delivered, and the column reads as null. */
const delivered = (value: unknown): null => {
  deliverReturned(value);
  return null;
};

/** The in-process notifications of a raw statement's returned rows (see deliverReturned). */
export function deliverReturnedRows(rows: Record<string, unknown>[]): void {
  for (const row of rows) for (const value of Object.values(row)) deliverReturned(value);
}

/**
 * The RETURNING column that sends `notes` from the statement itself (empty text; null without any).
 * E.g. `.returning({ id: runs.id, notified: notified(bus.inStatement(channels.runs, control)) })`.
 */
export function notified(...notes: (StatementNotification | undefined)[]): SQL<null> {
  const parts: SQL[] = [];
  for (const note of notes) {
    if (!note) continue;
    for (const send of note.sends) parts.push(sql`pg_notify(${send.channel}, ${send.payload})`);
    if (note.local) parts.push(sql`${note.local}::text`);
  }
  if (parts.length === 0) return sql<null>`null`;
  const column = parts.length === 1 ? parts[0] : sql`concat(${sql.join(parts, sql`, `)})`;
  return sql`${column}::text`.mapWith(delivered);
}

/**
 * `notified` in a statement built once (prepared): the notifications come as its parameters
 * (`notificationParameters`), any number of them, none for a statement that sends nothing.
 */
export const notifiedByParameters = () =>
  sql`(select string_agg(case when n.channel is null then n.payload
    else pg_notify(n.channel, n.payload)::text end, '')
    from unnest(${sql.placeholder('notifyChannels')}::text[], ${sql.placeholder('notifyPayloads')}::text[]) as n(channel, payload))`.mapWith(
    delivered,
  );

/** The parameters of `notifiedByParameters` for `notes`. */
export function notificationParameters(...notes: (StatementNotification | undefined)[]) {
  const notifyChannels: (string | null)[] = [];
  const notifyPayloads: string[] = [];
  for (const note of notes) {
    if (!note) continue;
    for (const send of note.sends) {
      notifyChannels.push(send.channel);
      notifyPayloads.push(send.payload);
    }
    if (note.local) {
      notifyChannels.push(null);
      notifyPayloads.push(note.local);
    }
  }
  return { notifyChannels, notifyPayloads };
}

/**
 * A wake-up whose payload the returned row makes (e.g. a queued document's id, which the database
 * draws), sent by the statement on commit whatever the bus: only workers listen for these, and they
 * poll besides, so a process without LISTEN loses nothing by not hearing it.
 */
export function wakeUpColumn<Payload>(channel: Channel<Payload>, payload: SQL<string>): SQL<null> {
  return sql<null>`pg_notify(${channel.name}, ${payload})`;
}
