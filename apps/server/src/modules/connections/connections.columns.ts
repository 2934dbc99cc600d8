import { sql, type SQL } from 'drizzle-orm';
import { rowFromJson, rowJson, connections } from '@crewline/db';
import type { ConnectionRow } from './connections.repository';

/*
 * SQL fragments over tool_configurations that other modules compose into their own statements (a
 * run's claim reads its organization's connections with it): the connections module owns the table.
 */

/**
 * The configurations of the organization of the row named `row` (its organization_id column), as one
 * JSON column of a read of that table: a run's claim reads the connections its agents use with it.
 * `configurationsFromJson` decodes it.
 */
export const configurationsJson = (row: string): SQL<unknown> => sql`coalesce((
  select json_agg(${rowJson('c')}) from tool_configurations c
  where c.organization_id = ${sql.raw(`"${row}"."organization_id"`)}), '[]'::json)`;

export function configurationsFromJson(json: unknown): ConnectionRow[] {
  return (json as unknown[]).map((row) => rowFromJson(connections, row));
}
