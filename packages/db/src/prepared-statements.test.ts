import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The names a process gives are capped (MAX_PREPARED), and server test files share their worker's
// modules (vitest.config.ts): this file loads its own, as a fresh process has them.
vi.resetModules();
const { createDb } = await import('./client');
const { PREPARE_AFTER } = await import('./prepared-statements');
const { createTestDatabase } = await import('./testing/test-database');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let single: ReturnType<typeof createDb>;
beforeAll(async () => {
  database = await createTestDatabase();
  // One connection, so every statement below meets the same session's prepared statements.
  single = createDb(database.url, { max: 1 });
});
afterAll(async () => {
  await single?.close();
  await database?.close();
});

/** The statements the pool's one connection holds prepared, by text. */
async function preparedTexts(): Promise<string[]> {
  const { rows } = await single.pool.query<{ statement: string }>(
    'select statement from pg_prepared_statements',
  );
  return rows.map((r) => r.statement);
}

describe('statements a process repeats', () => {
  it('are prepared once sent often enough, and keep answering right', async () => {
    const text = `select $1::int * 2 as doubled /* ${randomUUID()} */`;
    for (let n = 1; n < PREPARE_AFTER; n++) {
      expect((await single.pool.query(text, [n])).rows).toEqual([{ doubled: n * 2 }]);
    }
    expect(await preparedTexts()).not.toContain(text);
    for (let n = PREPARE_AFTER; n < PREPARE_AFTER + 3; n++) {
      expect((await single.pool.query({ text, values: [n] })).rows).toEqual([{ doubled: n * 2 }]);
    }
    expect(await preparedTexts()).toContain(text);
  });

  it('leaves statements without parameters unprepared (BEGIN, LISTEN: the simple protocol)', async () => {
    const text = `select 1 as one /* ${randomUUID()} */`;
    for (let n = 0; n < PREPARE_AFTER + 2; n++) await single.pool.query(text);
    expect(await preparedTexts()).not.toContain(text);
  });

  it('gives each text its own statement, inside transactions too', async () => {
    const mark = randomUUID();
    const texts = [`select $1::text as v /* ${mark} a */`, `select $1::text || '!' as v /* ${mark} b */`];
    for (let n = 0; n < PREPARE_AFTER + 1; n++) {
      const client = await single.pool.connect();
      try {
        await client.query('BEGIN');
        expect((await client.query(texts[0], [`x${n}`])).rows).toEqual([{ v: `x${n}` }]);
        expect((await client.query(texts[1], [`y${n}`])).rows).toEqual([{ v: `y${n}!` }]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    expect(await preparedTexts()).toEqual(expect.arrayContaining(texts));
  });
});
