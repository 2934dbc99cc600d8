import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, OneLinePerRequest, withoutQueryReports } from './logger';

const SECRET = 'canary-0b6a8f';

/** A pino logger as the worker process builds it (main.ts), writing its lines into memory. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()),
  });
  return { logger: pino(loggerOptions('trace'), stream), lines, text: () => JSON.stringify(lines) };
}

/** A Postgres error as `pg` raises it, with the detail that quotes the row. */
function postgresError(message: string, code: string) {
  return Object.assign(new Error(message), {
    code,
    severity: 'ERROR',
    detail: `Key (email)=(${SECRET}@example.com) already exists.`,
  });
}

const failedInsert = () =>
  new DrizzleQueryError(
    'insert into "users" ("email", "password_hash") values ($1, $2)',
    [`${SECRET}@example.com`, `$argon2id$v=19$m=19456,t=2,p=1$${SECRET}`],
    postgresError('duplicate key value violates unique constraint "users_email_unique"', '23505'),
  );

describe('logged errors', () => {
  it('keep the Postgres reason and code of a failed query, not its SQL, parameters or detail', () => {
    const { logger, lines, text } = memoryLogger();
    logger.error({ err: failedInsert() }, 'queue error');
    logger.warn(failedInsert()); // no message: pino would use the raw one
    logger.error({ err: failedInsert() }, failedInsert().message); // as Fastify's default error log does
    expect(lines[0].err).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      code: '23505',
    });
    expect(lines[0].err).toHaveProperty('stack', expect.stringMatching(/^\s+at /));
    expect(lines[1].msg).toBe('duplicate key value violates unique constraint "users_email_unique"');
    expect(lines[2].msg).toBe(lines[1].msg);
    expect(text()).not.toContain(SECRET);
    expect(text()).not.toMatch(/argon2id|password_hash|Failed query|params/);
  });

  it('drop the input Postgres data exceptions and JSON parse errors quote', () => {
    const { logger, lines, text } = memoryLogger();
    const cast = postgresError(`invalid input syntax for type uuid: "${SECRET}"`, '22P02');
    logger.error({ err: new DrizzleQueryError('select $1::uuid', [SECRET], cast) }, 'failed');
    let parseError: unknown;
    try {
      JSON.parse(`{"token": ${SECRET}}`);
    } catch (error) {
      parseError = error;
    }
    logger.warn({ err: parseError }, 'dropped an invalid notification');
    expect(lines[0].err).toMatchObject({ message: 'invalid input syntax for type uuid: "…"', code: '22P02' });
    expect(lines[1].err).toMatchObject({
      type: 'SyntaxError',
      message: expect.stringContaining('not valid JSON'),
    });
    expect(text()).not.toContain(SECRET);
  });

  it('leave out what an error carries besides its message, and redact credentials in its causes', () => {
    const { logger, lines, text } = memoryLogger();
    const cause = new Error(`connect to postgres://crewline:${SECRET}@db:5432/crewline failed`);
    const error = Object.assign(new Error('model call failed', { cause }), {
      requestBodyValues: { messages: [SECRET] },
      url: `https://api.example.com/v1?api_key=${SECRET}`,
    });
    logger.error({ err: error }, 'run failed unexpectedly');
    expect(lines[0].err).toEqual({
      type: 'Error',
      message: 'model call failed',
      stack: expect.any(String),
      cause: {
        type: 'Error',
        message: 'connect to postgres://crewline:[redacted]@db:5432/crewline failed',
        stack: expect.any(String),
      },
    });
    expect(text()).not.toContain(SECRET);
  });
});

describe('logged fields', () => {
  it('replace credentials by name at any depth and in any case, and keep everything else', () => {
    const { logger, lines, text } = memoryLogger();
    logger.info(
      {
        executionId: 'e1',
        usage: { promptTokens: 12, maxTokens: 300 },
        headers: { Authorization: `Bearer ${SECRET}`, Cookie: SECRET, 'X-Api-Key': SECRET, accept: 'json' },
        tool: { config: { nested: { API_KEY: SECRET, client_secret: SECRET, connectionString: SECRET } } },
        body: [{ password: SECRET, newPassword: SECRET, refreshToken: SECRET, name: 'Ada' }],
        nestedError: { inner: postgresError(`value "${SECRET}" is out of range for type integer`, '22003') },
      },
      'settings',
    );
    expect(lines[0]).toMatchObject({
      executionId: 'e1',
      usage: { promptTokens: 12, maxTokens: 300 },
      headers: {
        Authorization: '[redacted]',
        Cookie: '[redacted]',
        'X-Api-Key': '[redacted]',
        accept: 'json',
      },
      tool: { config: { nested: { API_KEY: '[redacted]', client_secret: '[redacted]' } } },
      body: [{ password: '[redacted]', name: 'Ada' }],
      nestedError: {
        inner: { type: 'Error', code: '22003', message: 'value "…" is out of range for type integer' },
      },
    });
    expect(text()).not.toContain(SECRET);
  });

  it('redact credentials in URLs and messages', () => {
    const { logger, lines, text } = memoryLogger();
    logger.info({ url: `/api/agents?page=2&token=${SECRET}&Access_Token=${SECRET}#top` }, 'request');
    logger.debug(`GET https://hooks.example.com/x?key=${SECRET}&sig=${SECRET} with Bearer ${SECRET}`);
    logger.info({ link: new URL(`https://user:${SECRET}@example.com/?apikey=${SECRET}`) }, 'link');
    expect(lines[0].url).toBe('/api/agents?page=2&token=[redacted]&Access_Token=[redacted]#top');
    expect(lines[1].msg).toBe(
      'GET https://hooks.example.com/x?key=[redacted]&sig=[redacted] with Bearer [redacted]',
    );
    expect(text()).not.toContain(SECRET);
  });

  it("redact an OAuth redirect's parameters and invitation tokens in paths, keeping look-alikes", () => {
    const { logger, lines, text } = memoryLogger();
    logger.info(
      { url: `/api/auth/microsoft/callback?code=${SECRET}&state=${SECRET}&session_state=${SECRET}` },
      'callback',
    );
    logger.info({ url: `/cb#x?id_token=${SECRET}&access_token=${SECRET}&error=access_denied` }, 'hybrid');
    logger.info({ url: `/api/invitations/${SECRET}/accept` }, 'accept');
    logger.info(`Route GET:/api/invitations/${SECRET} answered; page /invite/${SECRET}?from=mail`);
    logger.info({ url: '/api/x?zipcode=75001&statement=1&states=2' }, 'look-alikes');
    logger.info({ url: '/api/organizations/o-1/invitations/i-2' }, 'by id');
    expect(lines[0].url).toBe(
      '/api/auth/microsoft/callback?code=[redacted]&state=[redacted]&session_state=[redacted]',
    );
    expect(lines[1].url).toBe('/cb#x?id_token=[redacted]&access_token=[redacted]&error=access_denied');
    expect(lines[2].url).toBe('/api/invitations/[redacted]/accept');
    expect(lines[3].msg).toBe(
      'Route GET:/api/invitations/[redacted] answered; page /invite/[redacted]?from=mail',
    );
    expect(lines[4].url).toBe('/api/x?zipcode=75001&statement=1&states=2');
    expect(lines[5].url).toBe('/api/organizations/o-1/invitations/i-2');
    expect(text()).not.toContain(SECRET);
  });

  it('write a logged value too deep to check as a placeholder', () => {
    const { logger, text } = memoryLogger();
    let deep: Record<string, unknown> = { secretValue: SECRET, note: SECRET };
    for (let i = 0; i < 20; i++) deep = { level: deep };
    logger.info({ deep }, 'deep');
    expect(text()).toContain('[too deep to log]');
    expect(text()).not.toContain(SECRET);
  });
});

describe('a request', () => {
  it('is logged once, as it completes: method, redacted URL, status and time; a failure also as an error', async () => {
    const { logger, lines, text } = memoryLogger();
    const app = Fastify({ loggerInstance: logger, logController: new OneLinePerRequest() });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    await app.inject({ method: 'GET', url: `/ok?token=${SECRET}` });
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/ok?token=[redacted]' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    await app.inject({ method: 'GET', url: '/boom' });
    expect(lines.slice(1).map((line) => [line.level, line.msg])).toEqual([
      [50, 'boom'],
      [30, 'request completed'],
    ]);
    expect(lines[2]).toMatchObject({ req: { url: '/boom' }, res: { statusCode: 500 } });
    expect(text()).not.toContain(SECRET);
    await app.close();
  });
});

describe("the embedded Postgres server's output", () => {
  // As Postgres 18 writes it (captured from the embedded server).
  const at = (severity: string, text: string) => `2026-11-25 03:17:32.203 UTC [21512] ${severity}:  ${text}`;

  it('is logged without the reports of failed statements, which quote their input and rows', () => {
    const output = [
      at('ERROR', 'null value in column "hash" of relation "u" violates not-null constraint'),
      at('DETAIL', `Failing row contains (3, ${SECRET}@example.com, $argon2id$v=19$${SECRET}).`),
      at('STATEMENT', 'insert into u values (3, $1, $2)'),
      at('ERROR', `invalid input syntax for type uuid: "${SECRET}"`),
      at('CONTEXT', "unnamed portal parameter $1 = '...'"),
      at('STATEMENT', 'select 1'),
      `\tfrom u where email = '${SECRET}'`,
      at('LOG', 'database system is ready to accept connections'),
      at('FATAL', 'password authentication failed for user "postgres"'),
    ].join('\n');
    expect(withoutQueryReports(output)).toBe(
      [
        at('LOG', 'database system is ready to accept connections'),
        at('FATAL', 'password authentication failed for user "postgres"'),
      ].join('\n'),
    );
    expect(withoutQueryReports('creating configuration files ...')).toBe('creating configuration files ...');
  });
});
