/**
 * Whether `error` is Postgres refusing a write because of the unique constraint or index named
 * `constraint` (SQLSTATE 23505), as pg raises it or as Drizzle wraps it (`cause`). Repositories turn
 * it into the refusal a user reads (a name already taken, a run retried twice).
 */
export function violatesUnique(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause?.code ? e.cause : e;
  return pg.code === '23505' && pg.constraint === constraint;
}
