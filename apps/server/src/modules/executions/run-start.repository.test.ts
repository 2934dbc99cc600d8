import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { integer, jsonb, PgDialect, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { insertSelectList } from './run-start.repository';

/** The queued insert's select list: what `insert ... select` writes where `insert ... values` says DEFAULT. */
const runs = pgTable('runs', {
  id: uuid('id').primaryKey(),
  status: text('status').notNull().default('pending'),
  attempt: integer('attempt').notNull().default(0),
  logs: jsonb('logs').default(sql`'[]'::jsonb`),
  error: text('error'),
  doubled: integer('doubled').generatedAlwaysAs(sql`attempt * 2`),
});
const rendered = (list: ReturnType<typeof insertSelectList>) => new PgDialect().sqlToQuery(list);

describe("the queued insert's select list", () => {
  it("writes every column drizzle inserts, in its order: the value given, else the column's default", () => {
    const query = rendered(insertSelectList(runs, { id: sql.placeholder('id'), error: sql`'boom'` }));
    // The generated column is left out, as drizzle leaves it out of an insert.
    expect(query.sql).toBe("$1::uuid, $2::text, $3::integer, '[]'::jsonb, 'boom'");
    // $1 is the id's placeholder, filled in when the statement runs; the defaults go as parameters.
    expect(query.params).toHaveLength(3);
    expect(query.params.slice(1)).toEqual(['pending', 0]);
  });

  it('writes a typed null for a column with neither a value nor a default', () => {
    const query = rendered(insertSelectList(runs, { id: sql`gen_random_uuid()` }));
    expect(query.sql).toBe("gen_random_uuid(), $1::text, $2::integer, '[]'::jsonb, null::text");
  });

  it('refuses a default made in JavaScript, which the database cannot write', () => {
    const stamped = pgTable('stamped', { id: uuid('id').$defaultFn(() => crypto.randomUUID()) });
    expect(() => insertSelectList(stamped, {})).toThrow(
      'id: a default made in JavaScript is not written out',
    );
  });
});
