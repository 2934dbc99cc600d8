import net, { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import pg from 'pg';
import { z } from 'zod';
import {
  createAddressPolicy,
  defaultLookup,
  DESTINATION_NOT_ALLOWED,
  resolvePermitted,
  type AddressPolicy,
  type LookupFn,
  type ReservedCheck,
} from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';

/**
 * `database` tools: the model runs read-only SQL against the organization's own PostgreSQL
 * (docs/security.md). The connection string is tenant-controlled, so it is parsed here field by field
 * (never handed to pg, which would honour `?host=/unix/socket`, read `sslrootcert` files from our
 * disk and fill gaps from our PG* environment), its host and port are checked like HTTP egress
 * (the product's own database and ports are never reachable) and the socket goes to the checked IP.
 */

export type DatabaseToolOptions = {
  connectionString: string;
  /** Becomes the search_path of the transaction. */
  schema?: string;
  /** Admin exceptions to the address policy (see createAddressPolicy). */
  allowList?: string[];
  /** The product's own ports and database (the process's ReservedDestinations): always refused. */
  reserved?: ReservedCheck;
  statementTimeoutMs?: number;
  maxRows?: number;
  connectTimeoutMs?: number;
  lookup?: LookupFn;
};

export type DatabaseToolResult = {
  columns: string[];
  rows: Record<string, unknown>[];
  /** Rows returned here (at most maxRows); `truncated` says the query had more. */
  rowCount: number;
  truncated: boolean;
};

const MAX_SQL_CHARS = 20_000;
// The server-side statement_timeout should fire first; this only frees us from a server that stalls.
const CLIENT_GRACE_MS = 2_000;

const sqlArgs = z.object({ sql: z.string().trim().min(1, 'sql must not be empty').max(MAX_SQL_CHARS) });

export function createDatabaseTool(options: DatabaseToolOptions): LlmTool {
  const settings: Settings = {
    connectionString: options.connectionString,
    schema: options.schema,
    policy: createAddressPolicy('database', options.allowList, options.reserved),
    lookup: options.lookup ?? defaultLookup,
    statementTimeoutMs: wholePositive('statementTimeoutMs', options.statementTimeoutMs ?? 5_000),
    maxRows: wholePositive('maxRows', options.maxRows ?? 100),
    connectTimeoutMs: wholePositive('connectTimeoutMs', options.connectTimeoutMs ?? 5_000),
  };
  return {
    description:
      "Runs one read-only SQL statement against the organization's PostgreSQL database and returns the " +
      `columns and at most ${settings.maxRows} rows. Writes (INSERT, UPDATE, DELETE, DDL) are refused.`,
    inputSchema: {
      type: 'object',
      properties: { sql: { type: 'string', description: 'One PostgreSQL statement, e.g. a SELECT' } },
      required: ['sql'],
    },
    async execute(raw, callOptions) {
      const parsed = sqlArgs.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`Invalid arguments: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      }
      return runReadOnly(settings, parsed.data.sql, callOptions?.signal);
    },
  };
}

type Settings = {
  connectionString: string;
  schema?: string;
  policy: AddressPolicy;
  lookup: LookupFn;
  statementTimeoutMs: number;
  maxRows: number;
  connectTimeoutMs: number;
};

function wholePositive(name: string, value: number) {
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`database tool ${name} must be a whole number > 0`);
  return value;
}

type Target = {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  ssl: false | ConnectionOptions;
};

const invalid = () => new Error('The database connection string is not a valid postgres:// URL');

// Parameters that would move the connection elsewhere or read files on our server.
const refusedParams = [
  'host',
  'hostaddr',
  'port',
  'sslcert',
  'sslkey',
  'sslrootcert',
  'sslcrl',
  'sslpassword',
  'passfile',
  'service',
];

function parseTarget(connectionString: string): Target {
  let url: URL;
  try {
    url = new URL(connectionString.trim());
  } catch {
    throw invalid();
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw invalid();
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new Error('The database connection string has no host');
  const user = decode(url.username);
  // Without one, pg would fall back to our own PGUSER / PGPASSWORD / ~/.pgpass.
  if (!user) throw new Error('The database connection string has no user name');
  for (const name of refusedParams) {
    if (url.searchParams.has(name))
      throw new Error(`The connection string parameter "${name}" is not supported`);
  }
  return {
    host,
    port: url.port ? Number(url.port) : 5432,
    user,
    password: decode(url.password),
    database: decode(url.pathname.replace(/^\//, '')) || user,
    ssl: sslOptions(url.searchParams, host),
  };
}

function decode(text: string) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid();
  }
}

/**
 * Follows node-pg's reading of sslmode: `require` verifies the certificate too, `no-verify` is the
 * explicit opt-out. SNI and the certificate check use the original host name even though the
 * socket connects to its pinned IP.
 */
function sslOptions(params: URLSearchParams, host: string): false | ConnectionOptions {
  const mode =
    params.get('sslmode') ?? (['true', '1'].includes(params.get('ssl') ?? '') ? 'require' : 'disable');
  const servername = isIP(host) ? undefined : host.replace(/\.$/, '');
  switch (mode) {
    case 'disable':
    case 'allow':
      return false;
    case 'prefer':
    case 'require':
    case 'verify-full':
      return { rejectUnauthorized: true, servername };
    case 'verify-ca':
      return { rejectUnauthorized: true, servername, checkServerIdentity: () => undefined };
    case 'no-verify':
      return { rejectUnauthorized: false, servername };
    default:
      throw new Error(
        'Unsupported sslmode in the connection string: use disable, require, verify-ca, verify-full or no-verify',
      );
  }
}

/**
 * The addresses the socket may use, all allowed by the policy on the target's port (DNS rebinding
 * cannot change them later). A refusal comes before any socket and reads the same whatever the
 * reason, so it tells nothing about what listens there — and our own database never sees a login.
 */
async function resolveTarget(settings: Settings, target: Target, signal?: AbortSignal): Promise<string[]> {
  const { host, port } = target;
  const outcome = await resolvePermitted(
    settings.policy,
    (name) => abortable(settings.lookup(name), signal),
    host,
    port,
  );
  if (outcome.ok) return outcome.addresses.map((entry) => entry.address);
  if (outcome.reason === 'blocked') throw new Error(DESTINATION_NOT_ALLOWED);
  if (signal?.aborted) throw outcome.cause ?? signal.reason;
  throw new Error(`Could not resolve the database host ${host}`, { cause: outcome.cause });
}

// Dates and intervals as Postgres prints them: no shift into the server's time zone, no object shapes.
const textTypes = new Set([1082, 1083, 1114, 1184, 1186, 1266]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    textTypes.has(oid)
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

async function connect(settings: Settings, target: Target, address: string): Promise<pg.Client> {
  const client = new pg.Client({
    host: address,
    port: target.port,
    user: target.user,
    database: target.database,
    // A function, so an empty password is sent as such instead of pg reading PGPASSWORD or ~/.pgpass.
    password: () => target.password,
    ssl: target.ssl,
    sslnegotiation: 'postgres',
    connectionTimeoutMillis: settings.connectTimeoutMs,
    application_name: 'crewline',
    types,
  });
  // A socket error outside a query would otherwise be an unhandled 'error' event and crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

/** Tries each checked address in turn; only network failures move on to the next one. */
async function connectAny(settings: Settings, target: Target, addresses: string[]): Promise<pg.Client> {
  let lastError: unknown;
  for (const address of addresses) {
    try {
      return await connect(settings, target, address);
    } catch (error) {
      lastError = error;
      if (error instanceof pg.DatabaseError || !isNetworkError(error)) break;
    }
  }
  throw new Error(
    `Could not connect to the database at ${target.host}: ${describeConnectError(lastError, target)}`,
  );
}

export const SUPERUSER_REFUSED =
  'This connection logs in as a PostgreSQL superuser, which the database tool refuses because a superuser ' +
  'can escape a read-only transaction. Connect with a role that can only read, for example: ' +
  "CREATE ROLE reader LOGIN PASSWORD '…'; GRANT pg_read_all_data TO reader;";

class SuperuserRefused extends Error {
  constructor() {
    super(SUPERUSER_REFUSED);
  }
}

async function runReadOnly(
  settings: Settings,
  sql: string,
  signal?: AbortSignal,
): Promise<DatabaseToolResult> {
  signal?.throwIfAborted();
  const target = parseTarget(settings.connectionString);
  const addresses = await resolveTarget(settings, target, signal);
  const client = await connectAny(settings, target, addresses);

  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    if (stopped) return;
    stopped = reason;
    // A closed socket alone does not stop a running statement on the server (pg_sleep, a long scan).
    void sendCancel(client);
    // With a query in flight pg destroys the socket, which also ends the server's transaction.
    void client.end().catch(() => {});
  };
  const onAbort = () => stop(abortReason(signal));
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const timer = setTimeout(
    () => stop(new Error(`The query did not finish within ${settings.statementTimeoutMs} ms`)),
    settings.statementTimeoutMs + CLIENT_GRACE_MS,
  );
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${settings.statementTimeoutMs}`);
    if (settings.schema !== undefined) {
      await client.query(`SET LOCAL search_path = ${client.escapeIdentifier(settings.schema)}`);
    }
    // Once the transaction has run a query, `SET TRANSACTION READ WRITE` (or set_config on
    // transaction_read_only) is refused by the server, so the SQL below cannot lift the read-only mode.
    // That query also refuses superusers: they can escape any transaction (COPY … TO PROGRAM, lo_export).
    const role = await client.query<{ superuser: string }>(
      "SELECT current_setting('is_superuser') AS superuser",
    );
    if (role.rows[0]?.superuser === 'on') throw new SuperuserRefused();
    const result = await queryLimited(client, sql, settings.maxRows + 1);
    return toToolResult(result, settings.maxRows);
  } catch (error) {
    if (stopped) throw stopped;
    if (error instanceof SuperuserRefused) throw error;
    throw new Error(describeQueryError(error, settings.statementTimeoutMs), { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (!stopped) await client.query('ROLLBACK').catch(() => {});
    await client.end().catch(() => {});
  }
}

/** Best effort CancelRequest (protocol 3.0) to the same checked address the session uses. */
function sendCancel(client: pg.Client): Promise<void> {
  const { processID, secretKey } = client as unknown as {
    processID: number | null;
    secretKey: number | null;
  };
  if (processID === null || secretKey === null) return Promise.resolve();
  return new Promise((resolve) => {
    const socket = net.connect({ host: client.host, port: client.port });
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(CLIENT_GRACE_MS, done);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => {
      const packet = Buffer.alloc(16);
      packet.writeInt32BE(16, 0);
      packet.writeInt32BE(80877102, 4);
      packet.writeInt32BE(processID, 8);
      packet.writeInt32BE(secretKey, 12);
      socket.end(packet);
    });
  });
}

type ArrayResult = { fields: { name: string }[]; rows: unknown[][] };

/** The parts of pg's Query that LimitedQuery hooks into (not in @types/pg). */
type Connection = { sync(): void };
type QueryHooks = { handleError(error: Error, connection: Connection): void };
const QueryBase = pg.Query as unknown as new (
  config: object,
  callback: (error: Error | undefined, result: unknown) => void,
) => pg.Query & QueryHooks;

/**
 * pg's Query with two changes: the extended protocol (one Parse message, so `COMMIT; DROP TABLE t`
 * is refused by the server as multiple commands), and a portal that stops after `limit` rows instead
 * of fetching the rest, so `SELECT * FROM huge_table` never loads the whole table into our memory.
 */
class LimitedQuery extends QueryBase {
  // pg would Execute the portal again for the next batch; a Sync closes it and ends the query.
  handlePortalSuspended(connection: Connection) {
    connection.sync();
  }

  // With a row limit pg sends no Sync up front, and after an error the server skips everything up
  // to the next Sync: without this one the connection (and our ROLLBACK) would wait forever.
  override handleError(error: Error, connection: Connection) {
    if (error instanceof pg.DatabaseError) connection.sync();
    super.handleError(error, connection);
  }
}

function queryLimited(client: pg.Client, text: string, limit: number): Promise<ArrayResult> {
  return new Promise((resolve, reject) => {
    const config = { text, rowMode: 'array', queryMode: 'extended', rows: limit } as const;
    const query = new LimitedQuery(config, (error, result) =>
      error ? reject(error) : resolve(result as ArrayResult),
    );
    void client.query(query);
  });
}

function toToolResult(result: ArrayResult, maxRows: number): DatabaseToolResult {
  const columns = (result.fields ?? []).map((field) => field.name);
  const rows = (result.rows ?? []).slice(0, maxRows).map((values) =>
    // fromEntries defines own properties, so a column called __proto__ stays a column.
    Object.fromEntries(columns.map((column, i) => [column, toJson(values[i])])),
  );
  return { columns, rows, rowCount: rows.length, truncated: (result.rows ?? []).length > maxRows };
}

function toJson(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]));
  }
  return value;
}

const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  EPIPE: 'connection closed',
};

function isNetworkError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined && code in networkReasons) || isConnectTimeout(error);
}

function isConnectTimeout(error: unknown) {
  return error instanceof Error && /timeout/i.test(error.message) && !(error instanceof pg.DatabaseError);
}

// Only wording known not to carry secrets is passed on; anything else gets a generic reason.
function describeConnectError(error: unknown, target: Target): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  let reason = 'the connection failed';
  if (error instanceof pg.DatabaseError) reason = error.message;
  else if (code && networkReasons[code]) reason = networkReasons[code];
  else if (isConnectTimeout(error)) reason = 'connection timed out';
  else if (
    code &&
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code)
  ) {
    reason = `TLS error (${(error as Error).message})`;
  } else if (error instanceof Error && /does not support SSL/i.test(error.message)) {
    reason = 'the server does not support SSL';
  } else if (error instanceof Error && /terminated/i.test(error.message)) {
    reason = 'the server closed the connection';
  }
  return redact(reason, target.password);
}

function describeQueryError(error: unknown, statementTimeoutMs: number): string {
  if (error instanceof pg.DatabaseError) {
    if (error.code === '57014')
      return `Query cancelled: it ran longer than the limit of ${statementTimeoutMs} ms`;
    if (error.code === '42601' && /multiple commands/.test(error.message)) {
      return 'Query failed: only one SQL statement per call is allowed';
    }
    const hint = error.hint ? ` (hint: ${error.hint})` : '';
    return `Query failed: ${error.message}${hint}`;
  }
  if (error instanceof Error && /terminated|not queryable/i.test(error.message)) {
    return 'Query failed: the database closed the connection';
  }
  return 'Query failed';
}

function redact(text: string, secret: string) {
  return secret ? text.split(secret).join('***') : text;
}

function abortReason(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('The query was cancelled');
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
