// `scripts/container-start.sh migrate`: applies the pending migrations to DATABASE_URL and exits; the
// Helm chart's migration Job runs it before an install or upgrade rolls out new server processes. The
// same runMigrations every server process calls as it starts (apps/server/src/start.ts), under the
// same advisory lock, so a server starting meanwhile waits rather than migrating twice.
import { createDb, redactUrl, runMigrations } from '@crewline/db';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('container-migrate: DATABASE_URL is not set');
  process.exit(2);
}
const database = createDb(url, { max: 1 });
try {
  const started = performance.now();
  await runMigrations(database.db);
  console.log(
    `container-migrate: the database at ${redactUrl(url)} is migrated (${Math.round(performance.now() - started)} ms)`,
  );
} catch (error) {
  console.error(`container-migrate: migrating ${redactUrl(url)} failed:`, error);
  process.exitCode = 1;
} finally {
  await database.close();
}
