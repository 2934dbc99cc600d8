import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';

/**
 * A row of `table` as JSON (`to_jsonb`), for a read that returns rows of several tables in one
 * statement: `alias` names the row in that statement's FROM. `rowFromJson` turns it back into the
 * row drizzle would have read, so the JSON path and the plain one cannot drift apart.
 */
export const rowJson = (alias: string): SQL<unknown> => sql`to_jsonb(${sql.raw(`"${alias}"`)})`;

/** `rowJson`'s row, decoded by the table's own columns (timestamps to Dates, and so on). */
export function rowFromJson<T extends Table>(table: T, json: unknown): T['$inferSelect'] {
  const source = json as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = source[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/** Columns another module reads along with a row, in the same statement (SQL expressions by name). */
export type ExtraColumns = Record<string, SQL<unknown>>;

/**
 * `extra` nested under the key `extra` of a drizzle selection, so an extra column never meets one of
 * the row's own names; nothing when there are none (drizzle takes no empty nested selection).
 */
export const nestedExtra = (extra: ExtraColumns) =>
  (Object.keys(extra).length > 0 ? { extra } : {}) as { extra: ExtraColumns };

/**
 * `build` run once for each set of extra columns: a statement that reads them is built (and named
 * for preparing) the first time a caller passes that object, then reused. Callers keep their set in
 * one object, so the build (a fifth of a claim's CPU when it was done per call) happens once.
 */
export function builtForColumns<Built>(
  build: (extra: ExtraColumns) => Built,
): (extra: ExtraColumns) => Built {
  const built = new WeakMap<ExtraColumns, Built>();
  return (extra) => {
    let statement = built.get(extra);
    if (!statement) built.set(extra, (statement = build(extra)));
    return statement;
  };
}
