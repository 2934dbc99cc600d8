import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import type { AuthResponse } from '@crewline/contracts';
import { users } from '@crewline/db';
import { eq } from 'drizzle-orm';
import { pino, type Logger } from 'pino';
import { buildApp, createServices } from '../app';
import { startWorkerRole, type WorkerRole } from '../worker';
import { createEventBus, createPgEventBus, type EventBus, type PgEventBus } from '../platform/events';
import type { LlmGateway } from '../platform/llm';
import { channels } from '../platform/notifications/channels';
import { createReservedDestinations } from '../platform/egress';
import type { RealtimeEvent } from '@crewline/contracts';
import type { Config } from '../platform/env';
import { createTestDb, type TestDb } from './test-db';
import { testConfig } from './test-config';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

let counter = 0;

/** The real app on a database of its own; `signup()` makes a fresh account and returns its token. */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    logger?: FastifyServerOptions['logger'];
    /** A pino logger shared by the app, the runner and the worker (e.g. one writing to an array). */
    loggerInstance?: Logger;
    llm?: LlmGateway;
    /** The app's bus; built on the test database (e.g. a Postgres bus) when given as a function. */
    events?: (database: TestDb) => EventBus;
    /** Also run queued executions in this process (the worker role, with a Postgres bus for wake-ups and cancels). */
    worker?: boolean;
    /** The worker's email monitor: off with false (tests poll one by hand), or its poll interval. */
    emailMonitor?: false | { pollMs: number };
    /** Registers extra routes before the app is ready (e.g. one that fails on purpose). */
    routes?: (app: FastifyInstance, database: TestDb) => void;
    /** The billing clock (trials, periods, the month executions count in); tests move it. */
    clock?: () => Date;
  } = {},
) {
  const database = await createTestDb();
  const config = testConfig(options.config);
  const silent = pino({ level: 'silent' });
  let pgBus: PgEventBus | undefined;
  if (options.worker && !options.events) {
    pgBus = createPgEventBus({ databaseUrl: database.url, pool: database.pool, logger: silent });
    await pgBus.start();
  }
  const events = pgBus ?? options.events?.(database) ?? createEventBus();
  const published: RealtimeEvent[] = [];
  events.listen(channels.events, { onNotify: (batch) => published.push(...batch) });
  // As main.ts does: the app's own database is out of every tool's reach, even with 127.0.0.1 allow-listed.
  const reserved = createReservedDestinations({ localPorts: [config.port] });
  await reserved.addDatabase(database.url);
  const deps = {
    config,
    db: database.db,
    logger: options.logger ?? false,
    loggerInstance: options.loggerInstance,
    events,
    llm: options.llm,
    reserved,
    clock: options.clock,
  };
  const services = createServices(deps);
  // As main.ts does: the shipped template library is there from the start.
  await services.templates.seed();
  const app: FastifyInstance = await buildApp(deps, services);
  options.routes?.(app, database);
  await app.ready();
  const role: WorkerRole | undefined = options.worker
    ? await startWorkerRole({
        bus: events,
        services,
        config,
        logger: options.loggerInstance,
        drainMs: 0,
        emailMonitor: options.emailMonitor !== false,
        emailPollMs: options.emailMonitor ? options.emailMonitor.pollMs : undefined,
      })
    : undefined;
  const worker = role?.worker;

  // Every response body of the file, so a suite can prove a secret was never answered.
  const responseBodies: string[] = [];
  async function request(opts: InjectOptions & { token?: string }) {
    const { token, ...rest } = opts;
    const headers = { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await app.inject({ ...rest, headers });
    responseBodies.push(response.body);
    return response;
  }

  /**
   * A fresh account. Its email counts as verified (as if its owner had opened the link) unless
   * `verified: false`: most suites are not about verification, and accepting an invitation needs it.
   */
  async function signup(
    fields: Partial<Record<string, string>> = {},
    options: { verified?: boolean } = {},
  ): Promise<AuthResponse> {
    const n = `${process.pid}${++counter}${Math.random().toString(36).slice(2, 6)}`;
    const res = await request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        username: `user${n}`,
        email: `user${n}@example.com`,
        firstName: 'Test',
        lastName: `User${n}`,
        password: 'secret123',
        confirmPassword: 'secret123',
        role: 'user',
        ...fields,
      },
    });
    if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
    const account = res.json<AuthResponse>();
    if (options.verified === false) return account;
    await database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account.user.id));
    return { ...account, user: { ...account.user, emailVerified: true } };
  }

  return {
    app,
    db: database.db,
    /** The test database (its URL and pool), e.g. for a second Postgres bus. */
    database,
    config,
    /** The app's reserved destinations (its database; tests may add a port). */
    reserved,
    /** Every event the app published, oldest first. */
    published,
    responseBodies,
    request,
    signup,
    services,
    /** The in-process worker (with `worker: true`). */
    worker,
    /** The in-process worker's email monitor (with `worker: true`, unless `emailMonitor: false`). */
    emailMonitor: role?.emailMonitor,
    /** The worker's wake-up loop of waiting runs (tests call wakeNow after moving the clock). */
    wakeUps: role?.wakeUps,
    async close() {
      await role?.stop();
      await pgBus?.stop();
      await app.close();
      await services.sandbox.close();
      await database.close();
    },
  };
}
