import { pino } from 'pino';
import { startEmbeddedPostgres } from '@crewline/db/embedded';
import { ConfigError, loadConfig } from './platform/env';
import { allowListWarnings } from './platform/egress';
import { loggerOptions, withoutQueryReports } from './platform/logger';
import type { FastifyInstance } from 'fastify';
import type { WorkerRole } from './worker';

// What main.ts starts. ROLE=all runs everything in this process; ROLE=api serves HTTP only;
// ROLE=worker runs the worker role only (runs, documents, schedules, the mailbox monitor).
// What has been started, newest first; shutdown (or a failed start) runs it in that order.
const stops: (() => Promise<unknown>)[] = [];

/**
 * The rest of the server. Imported once the configuration is read and the embedded PostgreSQL is
 * starting: loading these modules takes the process a few hundred milliseconds, which the database
 * spends starting in its own processes.
 */
const loadServer = () =>
  Promise.all([
    import('@crewline/db'),
    import('./app'),
    import('./platform/egress'),
    import('./platform/events'),
    import('./worker'),
  ]);

/** A settled step's value, or its failure thrown. */
function fulfilled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

async function main() {
  const config = loadConfig(process.env);
  const logger = pino(loggerOptions(config.logLevel) as object);
  const shutdown = createShutdown(logger, stops);
  for (const warning of allowListWarnings(config.egressAllowList)) logger.warn(warning);
  if (config.tracing) {
    // OpenTelemetry traces (platform/telemetry), loaded only when configured; stopped last, so the
    // spans of runs the worker finishes while stopping are sent too.
    const { startTracing } = await import('./platform/telemetry/start-tracing');
    const tracing = await startTracing(config.tracing, { role: config.role, logger });
    stops.unshift(() => tracing.stop());
  }

  let embedded: ReturnType<typeof startEmbeddedPostgres> | undefined;
  if (!config.databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'starting the embedded PostgreSQL');
    embedded = startEmbeddedPostgres({
      dataDir: config.dataDir,
      log: (output) => {
        const kept = withoutQueryReports(output);
        if (kept) logger.debug(kept);
      },
    });
  }
  // Every step is settled before a failure is thrown, so whatever did start is in `stops`.
  const [loaded, postgresStart] = await Promise.allSettled([loadServer(), embedded]);
  const postgres = fulfilled(postgresStart);
  if (postgres) stops.unshift(() => postgres.stop());
  const [
    { createDb, runMigrations },
    { buildApp, createServices },
    { createReservedDestinations },
    { createPgEventBus },
    { startWorkerRole },
  ] = fulfilled(loaded);
  const databaseUrl = config.databaseUrl ?? postgres!.url;

  const database = createDb(databaseUrl, { max: config.databasePoolSize });
  stops.unshift(() => database.close());
  // Never reachable from a tool, model connection or webhook, whatever EGRESS_ALLOW_LIST says: our
  // ports (PORT here, the one we really listen on below) and our database, resolved once now.
  const reserved = createReservedDestinations({ localPorts: [config.port] });
  // Realtime events and run wake-ups cross processes through Postgres LISTEN/NOTIFY. The embedded
  // PostgreSQL is this process's alone (scaling out takes DATABASE_URL): it tells only itself.
  const bus = createPgEventBus({ databaseUrl, pool: database.pool, logger, alone: !config.databaseUrl });
  const services = createServices({ config, db: database.db, events: bus, loggerInstance: logger, reserved });
  if (config.metrics.port !== undefined) {
    // Prometheus scrapes every process on a port of its own, a worker's too (platform/metrics);
    // counting starts before the first run is claimed.
    const { processMetrics, startMetricsServer } = await import('./platform/metrics');
    const registry = (await processMetrics(config.metrics, database.db, services.queueDepth))!;
    const metricsServer = await startMetricsServer({
      port: config.metrics.port,
      host: config.host,
      registry,
    });
    stops.unshift(() => metricsServer.close());
    // Our own port, like PORT: never a tool's or a webhook's destination.
    reserved.addLocalPort(metricsServer.port);
    logger.info(`Metrics are served at http://${config.host}:${metricsServer.port}/metrics`);
  }

  // All at once, as none waits for another but where said: the database's address; the LISTEN
  // connection; the schema, then the shipped template library (there on first start, current after
  // an upgrade), then the worker role once the LISTEN connection is up too; and the HTTP app, which
  // needs no database to be built. Nothing is served before all are done.
  const up: { bus?: true; role?: WorkerRole; app?: FastifyInstance } = {};
  const listening = bus.start().then(() => void (up.bus = true));
  const steps = await Promise.allSettled([
    reserved.addDatabase(databaseUrl),
    listening,
    (async () => {
      await runMigrations(database.db);
      await services.templates.seed();
      if (config.role === 'api') return;
      await listening;
      up.role = await startWorkerRole({ bus, services, config, logger, heartbeat: true });
    })(),
    (async () => {
      if (config.role === 'worker') return;
      up.app = await buildApp({ config, db: database.db, loggerInstance: logger }, services);
    })(),
  ]);
  // Whatever started stops, whichever finished first, so that shutdown closes HTTP first, lets the
  // worker finish, then stops the LISTEN connection.
  const { role, app } = up;
  if (up.bus) stops.unshift(() => bus.stop());
  // The sandbox's threads stop once no step can use them: after the worker and HTTP.
  stops.unshift(() => services.sandbox.close());
  if (role) stops.unshift(() => role.stop());
  if (app) stops.unshift(() => app.close());
  steps.forEach(fulfilled);
  if (role) logger.info({ workerId: role.workerId, node: process.versions.node }, 'worker started');

  if (app) {
    // Hourly: rate-limit events past their windows, chat threads past CHAT_THREAD_DAYS and audit
    // events past AUDIT_RETENTION_DAYS.
    const prune = setInterval(() => {
      void services.auth.pruneRateLimits().catch(() => undefined);
      void services.chat.pruneThreads().catch(() => undefined);
      void services.audit.prune().catch(() => undefined);
    }, 3_600_000);
    prune.unref();
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    reserved.addLocalPort(port);
    const shownHost = config.host === '0.0.0.0' ? 'localhost' : config.host;
    logger.info(`Crewline is running at http://${shownHost}:${port} on Node ${process.versions.node}`);
  }

  // `on`, not `once`: under `npm start` a Ctrl-C reaches the server twice (from the terminal, and
  // forwarded by npm); the second is the same request, and shutdown is already under way.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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
