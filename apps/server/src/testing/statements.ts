import pg from 'pg';

/** A statement starting with this mark is not counted (a test's own polls, for example). */
export const UNCOUNTED = '/* uncounted */';

/**
 * The Postgres bus's outbox statement (platform/events.ts): it sends the notifications of every run in
 * flight, so a run's own count leaves it out (docs/decisions/0055-notifications-after-commit.md).
 */
export const isOutboxStatement = (statement: string) => statement.includes('pg_notify(n.channel, n.payload)');

/**
 * The statements every pg client of this process sends while `work` runs, whitespace folded; `work`
 * sees the list grow.
 */
export async function statementsDuring(work: (seen: string[]) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (!text.startsWith(UNCOUNTED)) seen.push(text.replace(/\s+/g, ' ').trim());
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work(seen);
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}
