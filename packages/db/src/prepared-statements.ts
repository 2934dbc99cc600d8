import pg from 'pg';

/**
 * A statement text sent this many times becomes a named prepared statement on each connection that
 * runs it: Postgres then parses and plans it once per connection instead of on every call. Planning
 * was the larger half of Postgres's time on a run's statements (they are short, the plans are not).
 * The threshold keeps one-off statements (migrations, a one-time report) unnamed.
 */
export const PREPARE_AFTER = 3;
/**
 * At most this many texts are named per process, so statements whose text varies (an IN list of
 * any length) cannot grow every connection's cache of prepared statements without end; past it,
 * new texts stay unnamed.
 */
const MAX_PREPARED = 300;
/** Texts counted but not named yet; the count starts over when it overflows. */
const MAX_COUNTED = 5000;

const names = new Map<string, string>();
const counts = new Map<string, number>();

/** The name a statement text runs under, once it has been sent often enough; undefined before. */
function statementName(text: string): string | undefined {
  const name = names.get(text);
  if (name || names.size >= MAX_PREPARED) return name;
  const count = (counts.get(text) ?? 0) + 1;
  if (count < PREPARE_AFTER) {
    if (counts.size >= MAX_COUNTED) counts.clear();
    counts.set(text, count);
    return undefined;
  }
  counts.delete(text);
  const named = `crewline_${names.size + 1}`;
  names.set(text, named);
  return named;
}

/**
 * node-postgres's client, preparing the statements this process repeats (the pattern of pgJDBC's
 * prepareThreshold and Npgsql's auto-prepare). Only statements with parameters are named: they use
 * the extended protocol already, so naming changes nothing but the parse and plan they skip; a
 * statement without parameters (BEGIN, LISTEN) keeps the simple protocol.
 */
export class PreparingClient extends pg.Client {}

type Query = { text?: string; name?: string; values?: unknown[]; submit?: unknown };
PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [config, values] = args;
  const query = (typeof config === 'string' ? { text: config } : config) as Query | null | undefined;
  const params = query?.values ?? values;
  if (query?.text && !query.submit && !query.name && Array.isArray(params) && params.length > 0) {
    const name = statementName(query.text);
    // A copy: drizzle reuses its query objects.
    if (name) args[0] = { ...query, name };
  }
  // Looked up on each call, so a wrapper put on pg's client later (a test's counter) still applies.
  return (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
} as pg.Client['query'];
