// The container's checks, in plain JavaScript so that each costs a Node start and no TypeScript
// compile (the image's HEALTHCHECK runs one every 30 seconds). Run through scripts/container-start.sh:
//   node scripts/container-probe.mjs wait     DATABASE_URL accepts a connection within DATABASE_WAIT_SECONDS
//   node scripts/container-probe.mjs health   this container serves /api/health (ROLE=api, all), or its
//                                             worker wrote a heartbeat within 45 s (ROLE=worker)
import os from 'node:os';
import pg from 'pg';

const env = process.env;

/** The database URL without its password, for messages. */
function shown(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL is not a URL)';
  }
}

/** Runs `work` on a fresh connection that gives up after `timeoutMs`. */
async function withClient(timeoutMs, work) {
  const client = new pg.Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitForDatabase() {
  const seconds = Number(env.DATABASE_WAIT_SECONDS);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`DATABASE_WAIT_SECONDS must be a number of seconds, not "${env.DATABASE_WAIT_SECONDS}"`);
  }
  const deadline = Date.now() + seconds * 1000;
  let announced = false;
  for (;;) {
    try {
      await withClient(5000, (client) => client.query('select 1'));
      if (announced) console.log('container-start: the database is up');
      return;
    } catch (error) {
      if (Date.now() >= deadline) {
        throw new Error(
          `the database at ${shown(env.DATABASE_URL)} did not accept a connection within ${seconds} s: ${error.message}`,
          { cause: error },
        );
      }
      if (!announced) console.log(`container-start: waiting for the database at ${shown(env.DATABASE_URL)}`);
      announced = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function health() {
  const role = env.ROLE || 'all';
  if (role === 'worker') {
    if (!env.DATABASE_URL) throw new Error('ROLE=worker needs DATABASE_URL');
    // The worker's heartbeat id starts with its host name (apps/server/src/worker.ts); a container's
    // host name is its own, so this finds this container's worker and no other.
    const { rowCount } = await withClient(5000, (client) =>
      client.query(
        `select 1 from worker_heartbeats
          where starts_with(id, $1) and last_seen_at > now() - interval '45 seconds'`,
        [`${os.hostname()}:`],
      ),
    );
    if (!rowCount) throw new Error(`no heartbeat of a worker on ${os.hostname()} in the last 45 s`);
    return;
  }
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 5000}/api/health`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
}

const command = process.argv[2];
const checks = { wait: waitForDatabase, health };
if (!checks[command]) {
  console.error('usage: node scripts/container-probe.mjs wait|health');
  process.exit(2);
}
try {
  await checks[command]();
  process.exit(0);
} catch (error) {
  console.error(`container-${command === 'wait' ? 'start' : 'health'}: ${error.message}`);
  process.exit(1);
}
