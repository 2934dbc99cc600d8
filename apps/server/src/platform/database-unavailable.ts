import { DrizzleQueryError } from 'drizzle-orm';

/**
 * Errors that mean the database cannot be reached right now (down, restarting, unreachable, out of
 * connections), as opposed to a query that failed. The API answers them 503 with Retry-After, and a
 * run meeting one is resumed later rather than marked failed: nothing about the request or the run
 * was wrong, and the same work succeeds once the database is back.
 */

/** Socket-level failures of node-postgres (Node's errno codes). */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or shutting down), 53300 too_many_connections.
 */
const sqlStates = new Set(['57P01', '57P02', '57P03', '53300']);
const connectionExceptionClass = /^08[0-9A-Z]{3}$/;

/** node-postgres and pg-pool raise these without a code when a connection ends or cannot be had. */
const lostConnection = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  // A single client's (not a pool's) connect timeout, e.g. the LISTEN connection's.
  'timeout expired',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

export type DatabaseUnavailable = { code?: string; message: string };

/**
 * What says the database is unreachable: the error itself or, through Drizzle's DrizzleQueryError,
 * the driver error it wraps. Other wrappers are not looked into: a tool's or a model's refused
 * connection (an EgressError, an LLM error) is about another server, not ours.
 */
export function databaseUnavailable(error: unknown): DatabaseUnavailable | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DrizzleQueryError) {
      current = current.cause;
      continue;
    }
    if (typeof current !== 'object') return undefined;
    const { code, message } = current as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') {
      if (socketCodes.has(code) || sqlStates.has(code) || connectionExceptionClass.test(code))
        return { code, message: text };
      return undefined;
    }
    return lostConnection.has(text) ? { message: text } : undefined;
  }
  return undefined;
}

export const isDatabaseUnavailable = (error: unknown): boolean => databaseUnavailable(error) !== undefined;

/** Seconds a client is asked to wait before trying again (the Retry-After of the 503). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
