import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import type { LogFn, LoggerOptions } from 'pino';

/**
 * What may reach a log line (docs/security.md): no password, hash, token, API key, credential or SQL
 * parameter. Every logger of the server (Fastify's and the worker's) is built from these options, so
 * the rules hold for any `logger.x({ err, ... }, msg)` call without each call site taking care:
 *
 * - errors are logged as their type, message, code and stack frames only: a Drizzle query error
 *   as the Postgres error it wraps (its own message holds the SQL and the parameters), and the
 *   Postgres messages that quote the offending input without the quote;
 * - fields whose name says they hold a credential are replaced, at any depth, whatever their case;
 * - credentials inside URLs and other strings (`?token=`, `user:password@`, `Bearer …`) are replaced,
 *   and so are an OAuth redirect's parameters (`?code=`, `&state=`) and the invitation token in the
 *   path of an invitation link (`/invite/…`, `/api/invitations/…`): each is enough to use what it names;
 * - a request is logged as its method, URL, host and client address (no headers, no body).
 */

const REDACTED = '[redacted]';
/** Deeper than this a logged object is not written at all, rather than written unchecked. */
const MAX_DEPTH = 8;
const MAX_CAUSES = 3;

/** Field names (lower-cased, without `-` and `_`) whose values are credentials. */
const SECRET_FIELD =
  /password|passwd|passphrase|secret|(?:token|apikey|accesskey|privatekey|encryptionkey|signingkey|authorization|cookies?|credentials?|connectionstring|databaseurl)$|^(?:key|pwd|pass|auth)$/;

function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name.toLowerCase().replace(/[-_\s]/g, ''));
}

/** Query parameters whose values are credentials: `token`, `access_token`, `api_key`, `key`, `password`, … */
const SECRET_QUERY_PARAMETER =
  /([?&;][\w.~%-]*?(?:token|secret|password|passwd|pwd|key|sig|signature|auth|credentials?)=)[^&#\s"'<>]*/gi;
/**
 * An OAuth redirect's parameters: the code and state together complete a sign-in, and the tokens of an
 * implicit or hybrid answer are credentials. Exact names, so that `zipcode=` or `statement=` stay.
 */
const OAUTH_QUERY_PARAMETER = /([?&;](?:code|state|session_state|id_token|access_token)=)[^&#\s"'<>]*/gi;
/** A pending invitation's token in a path: the link alone lets its holder join (docs/security.md). */
const INVITATION_PATH = /(\/api\/invitations\/|\/invite\/)[^/?#\s"'<>]+/gi;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]*@/gi;
// HTTP authorization values; at least 8 characters so that prose ('a basic check') stays as it is.
const BEARER_VALUE = /\b([Bb]earer|Basic)\s+[\w.~+/-]{8,}=*/g;

/** The text with the credentials it may carry in URLs and authorization values replaced. */
function redactText(text: string): string {
  if (!/[=@]|bearer|basic|\/invit/i.test(text)) return text;
  return text
    .replace(SECRET_QUERY_PARAMETER, `$1${REDACTED}`)
    .replace(OAUTH_QUERY_PARAMETER, `$1${REDACTED}`)
    .replace(INVITATION_PATH, `$1${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(BEARER_VALUE, `$1 ${REDACTED}`);
}

export type LoggedError = {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: LoggedError;
};

/** A Postgres error as the `pg` driver raises it: a five-character SQLSTATE and a severity. */
function isPostgresError(error: Error): error is Error & { code: string } {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/**
 * Messages that quote the input they rejected, without the quote: Postgres data exceptions (class 22:
 * `invalid input syntax for type uuid: "…"`) and JSON parse errors (`"…" is not valid JSON`).
 */
function messageOf(error: Error): string {
  const quotesInput =
    (isPostgresError(error) && error.code.startsWith('22')) ||
    (error instanceof SyntaxError && error.message.includes('JSON'));
  const message = quotesInput ? error.message.replace(/"[\s\S]*"/, '"…"') : error.message;
  return redactText(message);
}

/** The call sites, without the first line (which repeats the message). */
function framesOf(error: Error): string | undefined {
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line));
  return frames?.length ? frames.join('\n') : undefined;
}

/** What the log keeps of an error: its type, message, code, call sites and causes, nothing it carries. */
export function describeError(error: Error, causes = 0): LoggedError {
  // Drizzle's message is `Failed query: <sql>\nparams: <params>`: the Postgres error it wraps says why.
  const wrapped = error instanceof DrizzleQueryError || error.message.startsWith('Failed query: ');
  const reason = wrapped && error.cause instanceof Error ? error.cause : undefined;
  const code = (reason ?? error) as { code?: unknown };
  const cause = wrapped ? undefined : error.cause;
  return {
    type: error.constructor?.name || error.name || 'Error',
    message: reason ? messageOf(reason) : wrapped ? 'Failed query' : messageOf(error),
    ...(typeof code.code === 'string' || typeof code.code === 'number' ? { code: code.code } : {}),
    ...(framesOf(error) ? { stack: framesOf(error) } : {}),
    ...(cause instanceof Error && causes < MAX_CAUSES ? { cause: describeError(cause, causes + 1) } : {}),
  };
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a logged value that is safe to write. Class instances other than errors and URLs (a request,
 * a reply) are left to their serializers.
 */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return describeError(value);
  if (value instanceof URL) return redactText(value.href);
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  if (depth >= MAX_DEPTH) return '[too deep to log]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return redactFields(value, depth);
}

/** The object's own fields, each made safe (see redactValue), credentials replaced by name. */
function redactFields(object: object, depth = 0): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(object)) {
    copy[key] = isSecretField(key) ? REDACTED : redactValue(field, depth + 1);
  }
  return copy;
}

function serializeError(value: unknown): unknown {
  return value instanceof Error ? describeError(value) : value;
}

/** Postgres log lines that report a failed statement: they quote its input and the failing row. */
const QUERY_REPORT = new Set(['ERROR', 'DETAIL', 'STATEMENT', 'CONTEXT', 'QUERY', 'HINT']);
const POSTGRES_LINE = /^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[\d+\] ([A-Z]+):/;

/**
 * The embedded Postgres server's output without its reports of failed statements
 * (`ERROR:  invalid input syntax for type uuid: "…"`, `DETAIL:  Failing row contains (…)`): the app
 * logs those failures itself where they happen, safely. Start-up, shutdown and FATAL lines stay.
 */
export function withoutQueryReports(output: string): string {
  let dropping = false;
  const kept = output.split('\n').filter((line) => {
    const severity = POSTGRES_LINE.exec(line)?.[1];
    // A multi-line statement continues on lines that start with a tab.
    dropping = severity ? QUERY_REPORT.has(severity) : dropping && line.startsWith('\t');
    return !dropping;
  });
  return kept.join('\n');
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: {
      // Replaces Fastify's default, which also logs the `accept-version` header, and the URL as is.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactText(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      err: serializeError,
      error: serializeError,
    },
    formatters: { log: (object) => redactFields(object) },
    hooks: {
      logMethod(args, method) {
        const [first, message] = args as unknown[];
        const error =
          first instanceof Error
            ? first
            : first && typeof first === 'object'
              ? (first as { err?: unknown }).err
              : undefined;
        // Without a message of its own (or with the error's raw one, as Fastify logs some errors) pino
        // would write the error's raw message as the line's message.
        if (error instanceof Error && (message === undefined || message === error.message)) {
          return method.apply(this, [first as object, describeError(error).message]);
        }
        return method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<LogFn>,
        );
      },
    },
  };
}

/**
 * One line per request, when it completes: its method, URL, host, client, status and time (Fastify's
 * default writes a second line as each request arrives). A line costs the server as much as a
 * statement (the redaction above, the write), and the hot path's requests are many: a run's execute
 * request among them. A websocket is logged as it opens too, since it may stay open for hours. Errors
 * are still logged by Fastify as they happen.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (request.headers.upgrade && !this.isLogDisabled(request))
      request.log.info({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
