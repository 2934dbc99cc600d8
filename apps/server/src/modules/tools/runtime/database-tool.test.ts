import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createReservedDestinations } from '../../../platform/egress';
import { createLoginRole, createTestDb, type TestDb } from '../../../testing/test-db';
import {
  createDatabaseTool,
  SUPERUSER_REFUSED,
  type DatabaseToolOptions,
  type DatabaseToolResult,
} from './database-tool';

// The tool talks to the real test Postgres on 127.0.0.1, which only the allow-list makes reachable.
// Writes are checked through the test's own pool, never through the tool's answer.

let testDb: TestDb;
let connectionString: string;
let password: string;

const NAMES = ['ada', 'grace', 'linus', 'margaret', 'tim'];

beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.pool.query(`
    CREATE TABLE tool_items (id int PRIMARY KEY, name text NOT NULL);
    INSERT INTO tool_items SELECT i, (ARRAY['ada','grace','linus','margaret','tim'])[i] FROM generate_series(1, 5) i;
    CREATE SEQUENCE tool_seq;
    CREATE SCHEMA "Sales Data";
    CREATE TABLE "Sales Data".tool_items (id int PRIMARY KEY, name text NOT NULL);
    INSERT INTO "Sales Data".tool_items VALUES (1, 'north'), (2, 'south');
  `);
  // A normal login role with every grant: refused writes then prove the read-only transaction.
  connectionString = await createLoginRole(testDb, ['public', 'Sales Data']);
  password = decodeURIComponent(new URL(connectionString).password);
});

afterAll(async () => {
  await testDb?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

function tool(options: Partial<DatabaseToolOptions> = {}) {
  return createDatabaseTool({ connectionString, allowList: ['127.0.0.1'], ...options });
}

async function run(sql: string, options: Partial<DatabaseToolOptions> = {}) {
  return (await tool(options).execute({ sql })) as DatabaseToolResult;
}

async function tableState() {
  const { rows } = await testDb.pool.query<{ id: number; name: string }>(
    'SELECT id, name FROM tool_items ORDER BY id',
  );
  return rows;
}

const original = NAMES.map((name, i) => ({ id: i + 1, name }));

async function expectUnchanged() {
  expect(await tableState()).toEqual(original);
  const { rows } = await testDb.pool.query(
    "SELECT to_regclass('evil') AS evil, to_regclass('tool_items') AS items",
  );
  expect(rows[0]).toEqual({ evil: null, items: 'tool_items' });
}

/** A TCP server that only counts connections: proves a refusal happened before any socket was opened. */
async function countingServer() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('database tool: reading', () => {
  it('returns the columns and rows of a SELECT', async () => {
    const result = await run('SELECT id, name FROM tool_items WHERE id <= 2 ORDER BY id');
    expect(result).toEqual({
      columns: ['id', 'name'],
      rows: [
        { id: 1, name: 'ada' },
        { id: 2, name: 'grace' },
      ],
      rowCount: 2,
      truncated: false,
    });
  });

  it('describes itself with the row limit and a sql argument', () => {
    const built = tool({ maxRows: 7 });
    expect(built.description).toMatch(/read-only SQL/);
    expect(built.description).toMatch(/at most 7 rows/);
    expect(built.inputSchema).toMatchObject({ type: 'object', required: ['sql'] });
  });

  it('cuts the rows at maxRows and says so', async () => {
    const result = await run('SELECT id FROM tool_items ORDER BY id', { maxRows: 3 });
    expect(result.rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(result).toMatchObject({ rowCount: 3, truncated: true });
  });

  it('is not truncated when the result has exactly maxRows rows', async () => {
    const result = await run('SELECT id FROM tool_items ORDER BY id', { maxRows: 5 });
    expect(result).toMatchObject({ rowCount: 5, truncated: false });
  });

  it('stops reading a huge result after maxRows instead of fetching all of it', async () => {
    const started = Date.now();
    const result = await run('SELECT generate_series(1, 50000000) AS n', { maxRows: 2 });
    expect(result).toEqual({ columns: ['n'], rows: [{ n: 1 }, { n: 2 }], rowCount: 2, truncated: true });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('turns Postgres values into plain JSON', async () => {
    const result = await run(`SELECT 9007199254740993::int8 AS big, '\\xdeadbeef'::bytea AS bin,
      '2024-01-02 03:04:05+00'::timestamptz AS ts, '2024-02-29'::date AS day, '{"a":[1,2]}'::jsonb AS doc,
      ARRAY['2024-01-01 00:00:00+00'::timestamptz] AS stamps, 'NaN'::float8 AS nan, NULL AS nothing,
      1 AS __proto__`);
    const row = result.rows[0];
    expect(row.big).toBe('9007199254740993');
    expect(row.bin).toBe('\\xdeadbeef');
    expect(row.ts).toMatch(/^2024-01-0[12] \d\d:04:05/);
    expect(row.day).toBe('2024-02-29');
    expect(row.doc).toEqual({ a: [1, 2] });
    expect(row.stamps).toEqual(['2024-01-01T00:00:00.000Z']);
    expect(row.nan).toBe('NaN');
    expect(row.nothing).toBeNull();
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(1);
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('uses the configured schema as the search_path, quoted as an identifier', async () => {
    expect((await run('SELECT count(*)::int AS n FROM tool_items')).rows).toEqual([{ n: 5 }]);
    const inSchema = await run('SELECT name FROM tool_items ORDER BY id', { schema: 'Sales Data' });
    expect(inSchema.rows).toEqual([{ name: 'north' }, { name: 'south' }]);
    const path = await run('SHOW search_path', { schema: 'Sales Data' });
    expect(path.rows).toEqual([{ search_path: '"Sales Data"' }]);
  });

  it('treats a schema name as an identifier, not as SQL', async () => {
    await expect(run('SELECT 1', { schema: 'x"; DROP TABLE tool_items; --' })).resolves.toBeDefined();
    await expectUnchanged();
  });

  it('reports bad SQL as a readable error', async () => {
    await expect(run('SELEC 1')).rejects.toThrow(/^Query failed: syntax error at or near "SELEC"/);
    await expect(run('SELECT * FROM missing_table')).rejects.toThrow(
      /relation "missing_table" does not exist/,
    );
  });

  it('validates its arguments', async () => {
    await expect(tool().execute({})).rejects.toThrow(/Invalid arguments/);
    await expect(tool().execute({ sql: '   ' })).rejects.toThrow(/sql must not be empty/);
    await expect(tool().execute({ sql: `SELECT '${'x'.repeat(20_001)}'` })).rejects.toThrow(
      /Invalid arguments/,
    );
  });
});

describe('database tool: read-only', () => {
  it.each([
    ["INSERT INTO tool_items VALUES (6, 'eve')", 'INSERT'],
    ["UPDATE tool_items SET name = 'eve'", 'UPDATE'],
    ['DELETE FROM tool_items', 'DELETE'],
    ['TRUNCATE tool_items', 'TRUNCATE TABLE'],
    ['CREATE TABLE evil (id int)', 'CREATE TABLE'],
    ['DROP TABLE tool_items', 'DROP TABLE'],
    ['DO $$ BEGIN DELETE FROM tool_items; END $$', 'DELETE'],
    ["SELECT nextval('tool_seq')", 'nextval()'],
  ])('refuses %s', async (sql, command) => {
    await expect(run(sql)).rejects.toThrow(
      `Query failed: cannot execute ${command} in a read-only transaction`,
    );
    await expectUnchanged();
  });

  it('refuses a write hidden in a WITH clause', async () => {
    await expect(run('WITH gone AS (DELETE FROM tool_items RETURNING *) SELECT * FROM gone')).rejects.toThrow(
      /in a read-only transaction/,
    );
    await expectUnchanged();
  });

  it.each([
    'COMMIT; DROP TABLE tool_items',
    'select 1; delete from tool_items',
    'ROLLBACK; DELETE FROM tool_items',
  ])('refuses several statements in one call: %s', async (sql) => {
    await expect(run(sql)).rejects.toThrow('only one SQL statement per call is allowed');
    await expectUnchanged();
  });

  it('cannot switch the transaction to read-write', async () => {
    await expect(run('SET TRANSACTION READ WRITE')).rejects.toThrow(/must be set before any query/);
    await expect(run("SELECT set_config('transaction_read_only', 'off', true)")).rejects.toThrow(
      /must be set before any query/,
    );
    await expect(
      run('DO $$ BEGIN SET TRANSACTION READ WRITE; DELETE FROM tool_items; END $$'),
    ).rejects.toThrow(/before any query/);
    await expectUnchanged();
  });

  it('is not loosened by session settings, which end with the connection', async () => {
    await run('set default_transaction_read_only = off').catch(() => undefined);
    await run('SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE').catch(() => undefined);
    await run('COMMIT').catch(() => undefined);
    await expect(run("INSERT INTO tool_items VALUES (6, 'eve')")).rejects.toThrow(/read-only transaction/);
    await expectUnchanged();
  });

  it('cancels a long query with the statement timeout', async () => {
    const started = Date.now();
    await expect(run('SELECT pg_sleep(10)', { statementTimeoutMs: 300 })).rejects.toThrow(
      'Query cancelled: it ran longer than the limit of 300 ms',
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('still gives up when the SQL turns the statement timeout off', async () => {
    const started = Date.now();
    await expect(
      run("SELECT set_config('statement_timeout', '0', true), pg_sleep(10)", { statementTimeoutMs: 300 }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('ends the connection when the call is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('call cancelled')), 200);
    await expect(
      tool().execute({ sql: 'SELECT pg_sleep(10)' }, { signal: controller.signal }),
    ).rejects.toThrow('call cancelled');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('leaves no connection behind', async () => {
    await run('SELECT 1');
    await run('DELETE FROM tool_items').catch(() => undefined);
    await run('SELECT pg_sleep(5)', { statementTimeoutMs: 200 }).catch(() => undefined);
    const database = new URL(testDb.url).pathname.slice(1);
    let open = -1;
    for (let i = 0; i < 40 && open !== 0; i++) {
      const { rows } = await testDb.pool.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'crewline'",
        [database],
      );
      open = rows[0].n;
      if (open !== 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(open).toBe(0);
  });
});

describe('database tool: superusers', () => {
  it('refuses a connection that logs in as a superuser, before running the SQL', async () => {
    const superuser = new URL(testDb.url);
    if (superuser.hostname === 'localhost') superuser.hostname = '127.0.0.1';
    const attempt = tool({ connectionString: superuser.toString() }).execute({
      sql: "COPY (SELECT 1) TO PROGRAM 'touch /tmp/crewline-superuser-escape'",
    });
    await expect(attempt).rejects.toThrow(SUPERUSER_REFUSED);
  });
});

describe('database tool: where it may connect', () => {
  const withHost = (host: string, port?: number) => {
    const url = new URL(connectionString);
    url.hostname = host;
    if (port !== undefined) url.port = String(port);
    return url.toString();
  };

  it('refuses 127.0.0.1 without the allow-list, before opening any socket', async () => {
    const server = await countingServer();
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    try {
      const refused = createDatabaseTool({ connectionString: withHost('127.0.0.1', server.port) });
      await expect(refused.execute({ sql: 'SELECT 1' })).rejects.toThrow(/^Destination not allowed$/);
      expect(connect).not.toHaveBeenCalled();
      expect(server.connections()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('checks every address a name resolves to and refuses a private one', async () => {
    const lookup = vi.fn(async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const refused = createDatabaseTool({ connectionString: withHost('db.example.test'), lookup });
    await expect(refused.execute({ sql: 'SELECT 1' })).rejects.toThrow(/^Destination not allowed$/);
    expect(lookup).toHaveBeenCalledWith('db.example.test');
    expect(connect).not.toHaveBeenCalled();
  });

  it.each(['localhost', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '169.254.169.254', '10.0.0.1'])(
    'refuses %s however it is spelled',
    async (host) => {
      const connect = vi.spyOn(net.Socket.prototype, 'connect');
      const refused = createDatabaseTool({ connectionString: withHost(host) });
      await expect(refused.execute({ sql: 'SELECT 1' })).rejects.toThrow(
        /^Destination not allowed$|Could not resolve/,
      );
      expect(connect).not.toHaveBeenCalled();
    },
  );

  it('connects to the checked address, not to a second resolution of the name', async () => {
    const lookup = vi.fn(async () => [{ address: '127.0.0.1', family: 4 }]);
    const pinned = createDatabaseTool({
      connectionString: withHost('tenant-db.example.test'),
      allowList: ['127.0.0.1'],
      lookup,
    });
    const result = (await pinned.execute({
      sql: 'SELECT count(*)::int AS n FROM tool_items',
    })) as DatabaseToolResult;
    expect(result.rows).toEqual([{ n: 5 }]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('opens only the port an allow-list entry names, default 5432', async () => {
    const pgPort = Number(new URL(connectionString).port);
    const server = await countingServer();
    try {
      const connect = vi.spyOn(net.Socket.prototype, 'connect');
      const other = tool({
        connectionString: withHost('127.0.0.1', server.port),
        allowList: [`127.0.0.1:${pgPort}`],
      });
      await expect(other.execute({ sql: 'SELECT 1' })).rejects.toThrow(/^Destination not allowed$/);
      const noPort = new URL(withHost('127.0.0.1'));
      noPort.port = '';
      const defaultPort = tool({ connectionString: noPort.toString(), allowList: [`127.0.0.1:${pgPort}`] });
      await expect(defaultPort.execute({ sql: 'SELECT 1' })).rejects.toThrow(/^Destination not allowed$/);
      expect(connect).not.toHaveBeenCalled();
      expect(server.connections()).toBe(0);
      const allowed = tool({ allowList: [`127.0.0.1:${pgPort}`] });
      expect(((await allowed.execute({ sql: 'SELECT 1 AS one' })) as DatabaseToolResult).rows).toEqual([
        { one: 1 },
      ]);
    } finally {
      await server.close();
    }
  });

  it("never reaches the product's own database, even with 127.0.0.1 allow-listed, and never logs in", async () => {
    // What main.ts and createTestApp reserve: here the test Postgres plays the product's database.
    const reserved = createReservedDestinations();
    await reserved.addDatabase(inject('databaseUrl'));
    const own = new URL(inject('databaseUrl'));
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const wrongPassword = new URL(connectionString);
    wrongPassword.password = 'guess-1';
    const attempts = [
      connectionString, // valid credentials: still refused
      wrongPassword.toString(), // a guess: no "password authentication failed" oracle
      withHost('localhost', Number(own.port)),
      withHost('[::ffff:127.0.0.1]', Number(own.port)),
      withHost('0.0.0.0', Number(own.port)),
    ];
    for (const target of attempts) {
      const error = await createDatabaseTool({
        connectionString: target,
        allowList: ['127.0.0.1', 'localhost'],
        reserved,
      })
        .execute({ sql: 'SELECT 1' })
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(error?.message).toBe('Destination not allowed');
      expect(error?.message).not.toMatch(/password authentication failed/);
    }
    expect(connect).not.toHaveBeenCalled();
    // The rest of 127.0.0.1 stays open to the allow-list: the refusal is about our database only.
    const server = await countingServer();
    try {
      await createDatabaseTool({
        connectionString: withHost('127.0.0.1', server.port),
        allowList: ['127.0.0.1'],
        reserved,
      })
        .execute({ sql: 'SELECT 1' })
        .catch(() => undefined);
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses connection string parameters that would move the connection or read our files', async () => {
    for (const query of ['host=/var/run/postgresql', 'hostaddr=127.0.0.1', 'sslrootcert=/etc/passwd']) {
      const refused = tool({ connectionString: `${connectionString}?${query}` });
      await expect(refused.execute({ sql: 'SELECT 1' })).rejects.toThrow(/is not supported/);
    }
  });
});

describe('database tool: connection errors', () => {
  const secret = 'Sup3rSecretPassw0rd';

  it('reports an unusable connection string without echoing it', async () => {
    for (const bad of [
      `mysql://bob:${secret}@db.example.test/x`,
      `bob:${secret}@nowhere`,
      '',
      `postgres://:${secret}@db.example.test/x`,
    ]) {
      const error = await tool({ connectionString: bad })
        .execute({ sql: 'SELECT 1' })
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(error).toBeInstanceOf(Error);
      expect(error!.message).toMatch(/connection string/);
      expect(error!.message).not.toContain(secret);
      expect(error!.stack ?? '').not.toContain(secret);
    }
  });

  it('reports a refused connection without the password', async () => {
    const server = await countingServer();
    await server.close();
    const error = await tool({ connectionString: `postgres://bob:${secret}@127.0.0.1:${server.port}/x` })
      .execute({ sql: 'SELECT 1' })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error?.message).toBe('Could not connect to the database at 127.0.0.1: connection refused');
  });

  it('reports a wrong password without the password', async () => {
    const url = new URL(connectionString);
    url.password = secret;
    const error = await tool({ connectionString: url.toString() })
      .execute({ sql: 'SELECT 1' })
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(error?.message).toMatch(
      /^Could not connect to the database at 127\.0\.0\.1: password authentication failed/,
    );
    expect(error?.message).not.toContain(secret);
    expect(error?.message).not.toContain(password);
  });

  it('never fills a missing password from our environment', async () => {
    const url = new URL(connectionString);
    url.password = '';
    const saved = process.env.PGPASSWORD;
    // pg on its own would send PGPASSWORD here, i.e. our credentials to the tenant's server.
    process.env.PGPASSWORD = password;
    try {
      await expect(tool({ connectionString: url.toString() }).execute({ sql: 'SELECT 1' })).rejects.toThrow(
        /^Could not connect to the database at 127\.0\.0\.1: /,
      );
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  });
});
