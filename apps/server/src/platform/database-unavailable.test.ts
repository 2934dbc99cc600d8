import net from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, createDb } from '@crewline/db';
import { isDatabaseUnavailable } from './database-unavailable';
import { registerErrorHandler } from './errors';
import { createPgEventBus } from './events';

const withCode = (code: string, message = `failed (${code})`) => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) =>
  new DrizzleQueryError('select * from users where email = $1', ['ada@example.com'], cause as Error);

describe('which errors mean the database is unreachable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connect that timed out at the socket', withCode('ETIMEDOUT')],
    ['an unknown database host', withCode('ENOTFOUND')],
    [
      'the server shutting down (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['the server crashing (57P02)', withCode('57P02')],
    ['the server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a protocol violation (class 08)', withCode('08P01')],
    ['no connection slots left (53300)', withCode('53300', 'sorry, too many clients already')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['the pool connect timeout', new Error('Connection terminated due to connection timeout')],
    ['the wait for a pooled connection', new Error('timeout exceeded when trying to connect')],
    ['a client connect timeout', new Error('timeout expired')],
    [
      'a client that lost its connection',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['any of these inside a DrizzleQueryError', wrapped(withCode('57P01'))],
  ])('%s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a missing table', withCode('42P01')],
    ['a query error inside a DrizzleQueryError', wrapped(withCode('22P02'))],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    // Another server refusing (a tool's endpoint, a model provider) is not our database being down.
    ['a refused fetch', new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') })],
    [
      'a wrapped refusal of another kind',
      new Error('Could not reach the tool', { cause: withCode('ECONNREFUSED') }),
    ],
    [
      'a message that merely mentions a connection',
      new Error('Connection terminated unexpectedly, said the tool'),
    ],
    ['nothing at all', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('not %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('the error handler', () => {
  it('answers 503 with Retry-After, and logs a warning with the reason only', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    registerErrorHandler(app);
    app.get('/down', async () => {
      throw wrapped(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    });
    app.get('/broken', async () => {
      throw wrapped(withCode('42P01', 'relation "users" does not exist'));
    });
    try {
      const down = await app.inject({ method: 'GET', url: '/down' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        message: 'The service is temporarily unavailable. Try again in a moment.',
      });
      expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
      const warning = lines.find((l) => l.msg === 'database unavailable');
      expect(warning).toMatchObject({ level: 40, code: 'ECONNREFUSED' });
      // Neither the statement's parameters nor a stack: the cause is routine and says it all.
      expect(JSON.stringify(warning)).not.toMatch(/ada@example\.com|select \*|\bat /);

      // Any other database error stays a 500.
      expect((await app.inject({ method: 'GET', url: '/broken' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});

describe('connections to a database that accepts but never answers', () => {
  // Packets dropped by a firewall or a hung server: without a connect timeout every query would wait forever.
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  let url = '';
  beforeAll(async () => {
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `postgres://crewline:secret@127.0.0.1:${(silent.address() as net.AddressInfo).port}/crewline`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it(
    'fail, as the database being unavailable, for the app pool and the LISTEN connection',
    { timeout: 20_000 },
    async () => {
      const database = createDb(url);
      expect(database.pool.options.connectionTimeoutMillis).toBe(CONNECT_TIMEOUT_MS);
      const quiet = pino({ level: 'silent' });
      const bus = createPgEventBus({ databaseUrl: url, pool: database.pool, logger: quiet });
      try {
        const [query, listen] = await Promise.allSettled([database.pool.query('select 1'), bus.start()]);
        for (const outcome of [query, listen]) {
          expect(outcome.status).toBe('rejected');
          expect(isDatabaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
        }
      } finally {
        await bus.stop();
        await database.close();
      }
    },
  );
});
