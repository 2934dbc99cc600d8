import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import type { AuthResponse } from '@crewline/contracts';
import { buildApp } from '../app';
import { createEventBus, type EventBus } from '../platform/events';
import type { LlmGateway } from '../platform/llm';
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
    llm?: LlmGateway;
    /** The app's bus; built on the test database (e.g. a Postgres bus) when given as a function. */
    events?: (database: TestDb) => EventBus;
  } = {},
) {
  const database = await createTestDb();
  const config = testConfig(options.config);
  const events = options.events?.(database) ?? createEventBus();
  const published: RealtimeEvent[] = [];
  events.subscribe((event) => published.push(event));
  const app: FastifyInstance = await buildApp({
    config,
    db: database.db,
    logger: options.logger ?? false,
    events,
  });
  await app.ready();

  // Every response body of the file, so a suite can prove a secret was never answered.
  const responseBodies: string[] = [];
  async function request(opts: InjectOptions & { token?: string }) {
    const { token, ...rest } = opts;
    const headers = { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await app.inject({ ...rest, headers });
    responseBodies.push(response.body);
    return response;
  }

  async function signup(fields: Partial<Record<string, string>> = {}): Promise<AuthResponse> {
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
    return res.json();
  }

  return {
    app,
    db: database.db,
    /** The test database (its URL and pool), e.g. for a second Postgres bus. */
    database,
    config,
    /** Every event the app published, oldest first. */
    published,
    responseBodies,
    request,
    signup,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
