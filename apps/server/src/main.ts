import { pino } from 'pino';
import { createDb, runMigrations, startEmbeddedPostgres } from '@crewline/db';
import { buildApp, createServices } from './app';
import { ConfigError, loadConfig } from './platform/env';
import { createReservedDestinations, loopbackWarning } from './platform/egress';
import { loggerOptions, withoutQueryReports } from './platform/logger';
import { createPgEventBus } from './platform/events';
import { executionQueue, startQueue } from './platform/queue';
import { startWorkerRole } from './modules/executions/worker-role';

// ROLE=all runs everything in this process; ROLE=api serves HTTP only; ROLE=worker runs jobs only.
// What has been started, newest first; shutdown (or a failed start) runs it in that order.
const stops: (() => Promise<unknown>)[] = [];

async function main() {
  const config = loadConfig(process.env);
  const logger = pino(loggerOptions(config.logLevel) as object);
  const shutdown = createShutdown(logger, stops);
  const openLoopback = loopbackWarning(config.egressAllowList);
  if (openLoopback) logger.warn(openLoopback);

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'starting the embedded PostgreSQL');
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      log: (output) => {
        const kept = withoutQueryReports(output);
        if (kept) logger.debug(kept);
      },
    });
    stops.unshift(() => embedded.stop());
    databaseUrl = embedded.url;
  }
  const database = createDb(databaseUrl);
  stops.unshift(() => database.close());
  await runMigrations(database.db);
  // Never reachable from a tool, model connection or webhook, whatever EGRESS_ALLOW_LIST says: our
  // ports (PORT here, the one we really listen on below) and our database, resolved once now.
  const reserved = createReservedDestinations({ localPorts: [config.port] });
  await reserved.addDatabase(databaseUrl);

  // Realtime events and job wake-ups cross processes through Postgres LISTEN/NOTIFY.
  const bus = createPgEventBus({ databaseUrl, pool: database.pool, logger });
  await bus.start();
  stops.unshift(() => bus.stop());
  // Every role queues runs; only workers work them.
  const boss = await startQueue(databaseUrl, logger);
  stops.unshift(() => boss.stop());

  const services = createServices({
    config,
    db: database.db,
    events: bus,
    queue: executionQueue(boss),
    loggerInstance: logger,
    reserved,
  });

  // The shipped template library is there on first start, and current after an upgrade.
  await services.templates.seed();

  if (config.role !== 'api') {
    const role = await startWorkerRole({ boss, bus, services, config, logger, heartbeat: true });
    stops.unshift(() => role.stop());
    logger.info({ workerId: role.workerId, node: process.versions.node }, 'worker started');
  }

  if (config.role !== 'worker') {
    const app = await buildApp({ config, db: database.db, loggerInstance: logger }, services);
    stops.unshift(() => app.close());
    const prune = setInterval(() => void services.auth.pruneRateLimits().catch(() => undefined), 3_600_000);
    prune.unref();
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    reserved.addLocalPort(port);
    const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
    logger.info(`Crewline is running at http://${shownHost}:${port} on Node ${process.versions.node}`);
  }

  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

function createShutdown(logger: pino.Logger, stops: (() => Promise<unknown>)[]) {
  let stopping = false;
  return async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    // Newest first: HTTP stops accepting, the worker finishes, then the pool and the database close.
    for (const stop of stops) {
      try {
        await stop();
      } catch (err) {
        logger.warn({ err }, 'error during shutdown');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
}

main().catch(async (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // Configuration and folder-permission problems are the user's to fix: say so plainly, no stack.
  if (error instanceof ConfigError || /cannot enter|DATA_DIR/.test(message)) console.error(message);
  else console.error(error);
  for (const stop of stops) await stop().catch(() => undefined);
  process.exit(1);
});
