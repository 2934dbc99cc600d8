import type { LookupAddress } from 'node:dns';
import type { Agent as HttpAgent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import {
  type AddressPolicy,
  allowListUses,
  checkAllowList,
  createAddressPolicy,
  type EgressUse,
  type ReservedCheck,
} from './address-policy';
import { DESTINATION_NOT_ALLOWED, EgressError } from './egress-error';
import { http } from '../node-http';
import { createPools, pinnedLookup, type PoolOptions, type Pools } from './pools';
import { defaultLookup, resolvePermitted, type LookupFn } from './resolve';

export type { LookupFn } from './resolve';
export type { PoolOptions } from './pools';
/**
 * The only way the server makes HTTP requests to tenant-controlled destinations (tool base URLs,
 * webhooks, custom LLM base URLs): docs/security.md. A request is sent through the view of its use
 * (`egress.for('tool')`), which applies only the allow-list entries for that use. Every hop is resolved
 * once, checked, and the socket connects to exactly the checked addresses. Connections are kept alive
 * in pools per destination and checked address set (pools.ts), never shared between uses or instances.
 */

export type EgressOptions = {
  /**
   * Admin exceptions: hosts, IPs or CIDRs, each optionally with a port and a use (see
   * createAddressPolicy); each view applies the entries for its use and those without one.
   */
  allowList?: string[];
  /** The process's ReservedDestinations (its own ports and database): refused whatever the allow-list says. */
  reserved?: ReservedCheck;
  /** Overall limit for one fetch: DNS, connect, every redirect hop and reading the body. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  lookup?: LookupFn;
  /** Keep-alive pool limits (pools.ts has the defaults). */
  pool?: PoolOptions;
};

export type EgressRequestInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /**
   * Hands the body over as it arrives (`body`), for answers that come in pieces (a model's server-sent
   * events). The size limit and the deadline still apply, until the body has been read to its end.
   */
  stream?: boolean;
};

/**
 * Without `stream`, the body has already been read within the size limit; text() and json() only
 * decode it. With it, `body` is the body as it arrives, and text() and json() read it.
 */
export type EgressResponse = {
  status: number;
  /** Lower-case names; repeated headers (set-cookie) joined with ", ". */
  headers: Record<string, string>;
  /** The URL of the last hop, after redirects. */
  url: string;
  /** Only with `stream`: read it, or cancel it, to give the connection back. */
  body?: ReadableStream<Uint8Array>;
  text(): Promise<string>;
  json(): Promise<unknown>;
};

/** Sends for one use: the destinations its allow-list entries (and those without a use) open. */
export type Egress<U extends EgressUse = EgressUse> = {
  readonly use: U;
  fetch(url: string | URL, init?: EgressRequestInit): Promise<EgressResponse>;
};

/**
 * Gives the view of a use; there is no fetch without one, so every request says what it is for. Code
 * that sends for one use needs just an Egress; code that sends for several (output delivery) takes this.
 */
export type EgressByUse = {
  for<U extends EgressUse>(use: U): Egress<U>;
};

/** What createEgress returns. */
export type PooledEgress = EgressByUse & {
  /**
   * Closes the pooled connections of every use, idle and in use. Not required: idle sockets do not
   * keep the process alive and close after a few seconds on their own.
   */
  close(): void;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

type Settings = {
  policy: AddressPolicy;
  lookup: LookupFn;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
  // Per use of one instance: a socket is only ever reused by a request this use's policy has just allowed.
  pools: Pools;
};

export function createEgress(options: EgressOptions = {}): PooledEgress {
  const lookup = options.lookup ?? defaultLookup;
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxResponseBytes = positive(
    'maxResponseBytes',
    options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  );
  const maxRedirects = atLeastZero('maxRedirects', options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
  // Read now, so a malformed entry fails at start-up rather than at the first request of its use.
  checkAllowList(options.allowList ?? []);
  const views = new Map<EgressUse, { view: Egress; pools: Pools }>();

  function view<U extends EgressUse>(use: U): Egress<U> {
    const known = views.get(use);
    if (known) return known.view as Egress<U>;
    if (use !== 'service' && !allowListUses.includes(use)) throw new TypeError(`Unknown egress use ${use}`);
    const settings: Settings = {
      policy: createAddressPolicy(use, options.allowList, options.reserved),
      lookup,
      timeoutMs,
      maxResponseBytes,
      maxRedirects,
      pools: createPools(options.pool),
    };
    const created: Egress<U> = { use, fetch: (url, init = {}) => egressFetch(settings, url, init) };
    views.set(use, { view: created, pools: settings.pools });
    return created;
  }

  return {
    for: view,
    close: () => views.forEach(({ pools }) => pools.close()),
  };
}

function positive(name: string, value: number) {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`egress ${name} must be a positive number`);
  return value;
}

function atLeastZero(name: string, value: number) {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`egress ${name} must be a whole number ≥ 0`);
  return value;
}

async function egressFetch(
  settings: Settings,
  input: string | URL,
  init: EgressRequestInit,
): Promise<EgressResponse> {
  const timeoutMs = positive('timeoutMs', init.timeoutMs ?? settings.timeoutMs);
  const maxBytes = positive('maxResponseBytes', init.maxResponseBytes ?? settings.maxResponseBytes);
  let url = parseUrl(input);
  let method = (init.method ?? 'GET').toUpperCase();
  let headers = prepareHeaders(init.headers);
  let body = init.body;

  // One controller carries both the deadline and the caller's cancellation into DNS, the socket
  // and the body stream; its reason is what the caller gets.
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new EgressError('timeout', `Request to ${url.hostname} timed out after ${timeoutMs} ms`),
      ),
    timeoutMs,
  );
  const callerSignal = init.signal;
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  const release = () => {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  };
  // A streamed body keeps the deadline and the caller's signal until it has been read.
  let streaming = false;

  try {
    for (let redirects = 0; ; redirects++) {
      // Checked on every request and hop, pooled socket or not: a pool is picked only afterwards.
      const addresses = await abortable(resolveDestination(settings, url), controller.signal);
      const res = await send(settings.pools, url, addresses, method, headers, body, controller.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (!redirectStatuses.has(status) || !location) {
        if (init.stream) {
          streaming = true;
          const body = streamBody(res, maxBytes, url.hostname, controller.signal, release);
          return toResponse(res, url, body);
        }
        const bytes = await readBody(res, maxBytes, url.hostname);
        return toResponse(res, url, bytes);
      }
      // The body is not read, so the socket cannot carry another response: destroying the response
      // destroys its socket, which leaves the pool (only a fully read response frees its socket).
      res.destroy();
      if (redirects >= settings.maxRedirects) {
        throw new EgressError(
          'too_many_redirects',
          `Request to ${url.hostname} was redirected more than ${settings.maxRedirects} times`,
        );
      }
      const next = parseRedirect(location, url);
      // What browsers do (the Fetch standard's "HTTP-redirect fetch"): 303 turns into GET, and so do 301/302
      // after a POST; the body and the headers describing it go away.
      if (
        (status === 303 && method !== 'HEAD') ||
        ((status === 301 || status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers = omit(headers, bodyHeaders);
      }
      // Credentials meant for one origin must not be handed to another one it redirects to.
      if (next.origin !== url.origin) headers = omit(headers, credentialHeaders);
      url = next;
    }
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    if (error instanceof EgressError) throw error;
    throw new EgressError('network', `Request to ${url.hostname} failed: ${describeNetworkError(error)}`, {
      cause: error,
    });
  } finally {
    if (!streaming) release();
  }
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const bodyHeaders = ['content-type', 'content-encoding', 'content-language', 'content-location'];
const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie'];

function parseUrl(input: string | URL): URL {
  let url: URL;
  try {
    // A copy, so a URL object the caller keeps is never changed by us.
    url = new URL(String(input));
  } catch {
    throw new EgressError('bad_url', 'Invalid URL');
  }
  return checkUrl(url);
}

function checkUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('bad_url', 'Only http and https URLs are allowed');
  }
  // Credentials in a URL end up in logs and error reports; a header keeps them out of both.
  if (url.username || url.password) {
    throw new EgressError(
      'bad_url',
      'URLs with a user name or password are not allowed: send them in a header',
    );
  }
  return url;
}

function parseRedirect(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new EgressError('bad_url', `${from.hostname} redirected to an invalid URL`);
  }
  return checkUrl(next);
}

/** `[::1]` in a URL is `::1` to DNS, sockets and the policy. */
function bareHostname(url: URL) {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port the socket will use: WHATWG URL leaves `port` empty for the scheme's default. */
function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Resolves the hop's hostname once and returns the addresses the socket may use — all checked, on
 * the hop's own port. A refusal says nothing about the destination (not whether it is private,
 * reserved, or listening): no socket has been opened, and every refusal reads the same.
 */
async function resolveDestination(settings: Settings, url: URL): Promise<LookupAddress[]> {
  // WHATWG URL has already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1.
  const outcome = await resolvePermitted(
    settings.policy,
    settings.lookup,
    bareHostname(url),
    effectivePort(url),
  );
  if (outcome.ok) return outcome.addresses;
  if (outcome.reason === 'blocked') throw new EgressError('blocked_address', DESTINATION_NOT_ALLOWED);
  throw new EgressError('network', `Could not resolve ${url.hostname}`, { cause: outcome.cause });
}

// Connection-level headers are ours to set: Host must name the checked destination, and the
// framing headers must match the body we actually send.
const managedHeaders = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

function prepareHeaders(input: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(input)) {
    const name = rawName.toLowerCase();
    try {
      http.validateHeaderName(name);
    } catch {
      throw new EgressError('bad_url', 'Invalid request header name');
    }
    try {
      http.validateHeaderValue(name, value);
    } catch {
      // The value may be a credential: name the header, never echo the value.
      throw new EgressError('bad_url', `Invalid value for the request header "${name}"`);
    }
    if (!managedHeaders.has(name)) headers[name] = value;
  }
  return headers;
}

function omit(headers: Record<string, string>, names: string[]) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

async function send(
  pools: Pools,
  url: URL,
  addresses: LookupAddress[],
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const hostname = bareHostname(url);
  const secure = url.protocol === 'https:';
  const port = effectivePort(url);
  const agent = pools.agentFor({ secure, hostname, port, addresses });
  try {
    return await request(url, agent, addresses, method, headers, body, signal);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    // A server may close an idle keep-alive connection just as we reuse it, usually before reading
    // our request — but it may also have read it and failed. So only a request that is safe to send
    // twice (RFC 9110 §9.2.2) is sent again, once, on a connection of its own, to the same checked
    // addresses within the same deadline; a POST gets the error, as from a fresh connection reset.
    if (signal.aborted || !idempotentMethods.has(method)) throw error.cause;
    return request(url, false, addresses, method, headers, body, signal);
  }
}

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
const staleSocketCodes = new Set(['ECONNRESET', 'EPIPE']);

/** A reused keep-alive socket failed before any response arrived. */
class StaleSocket extends Error {}

function request(
  url: URL,
  agent: HttpAgent | false,
  addresses: LookupAddress[],
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const hostname = bareHostname(url);
    const secure = url.protocol === 'https:';
    const outgoing: OutgoingHttpHeaders = { ...headers, host: url.host };
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    // autoSelectFamily reaches net.connect through the agent; @types/node only lists it on net's options.
    const options: https.RequestOptions & { autoSelectFamily?: boolean } = {
      hostname,
      port: effectivePort(url),
      path: `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      // The destination's pool, whose lookup is pinned to these same addresses (pools.ts), or false
      // for a one-off connection that uses the lookup below.
      agent,
      lookup: pinnedLookup(addresses),
      // Tries every checked address (e.g. ::1 then 127.0.0.1 for "localhost"), never another one.
      autoSelectFamily: true,
      // Aborting (the deadline or the caller) destroys the request's socket, so it never returns to
      // the pool: a half-read response cannot be taken for the next request's.
      signal,
    };
    // SNI carries names only; the certificate is then verified against this name (never disabled).
    if (secure && !isIP(hostname)) options.servername = hostname.replace(/\.$/, '');
    const req = (secure ? https : http).request(options, resolve);
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        req.reusedSocket && staleSocketCodes.has(error.code ?? '')
          ? new StaleSocket('stale keep-alive socket', { cause: error })
          : error,
      ),
    );
    req.end(body);
  });
}

async function readBody(res: IncomingMessage, limit: number, host: string): Promise<Buffer> {
  const tooLarge = () =>
    new EgressError('too_large', `The response from ${host} is larger than the limit of ${limit} bytes`);
  const declared = res.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    res.destroy();
    throw tooLarge();
  }
  // The declared length may lie or be absent (chunked), and a compressed body can expand: the
  // limit applies to the bytes we actually hold, counted as they arrive.
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > limit) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    res.destroy();
    throw error;
  }
  return Buffer.concat(chunks, total);
}

/**
 * The body as a web stream, for fetch's Response: the size limit counted as it arrives, and an abort
 * (deadline or caller) or a broken connection ends it with the error the buffered path would throw.
 * `done` runs once, when the body has ended, failed or been cancelled.
 */
function streamBody(
  res: IncomingMessage,
  limit: number,
  host: string,
  signal: AbortSignal,
  done: () => void,
): ReadableStream<Uint8Array> {
  const chunks = decoded(res)[Symbol.asyncIterator]();
  let total = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  return new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const next = await chunks.next();
        if (next.done) {
          finish();
          stream.close();
          return;
        }
        const chunk = next.value as Buffer;
        total += chunk.length;
        if (total > limit) {
          throw new EgressError(
            'too_large',
            `The response from ${host} is larger than the limit of ${limit} bytes`,
          );
        }
        stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
      } catch (error) {
        res.destroy();
        finish();
        if (signal.aborted) stream.error(signal.reason);
        else if (error instanceof EgressError) stream.error(error);
        else
          stream.error(
            new EgressError('network', `Request to ${host} failed: ${describeNetworkError(error)}`, {
              cause: error,
            }),
          );
      }
    },
    cancel() {
      res.destroy();
      finish();
    },
  });
}

/** Decompresses gzip/deflate/br bodies as fetch() would; other encodings are returned as sent. */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  // Lenient flushing (as undici does) so a body cut short by the server still yields what arrived.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip(flush)
      : encoding === 'deflate'
        ? zlib.createInflate(flush)
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  // pipeline propagates an error on either side to the stream we read from.
  return pipeline(res, decoder, () => {});
}

function toResponse(
  res: IncomingMessage,
  url: URL,
  body: Buffer | ReadableStream<Uint8Array>,
): EgressResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text =
    body instanceof ReadableStream
      ? () => new Response(body).text()
      : async () => new TextDecoder().decode(body);
  return {
    status: res.statusCode ?? 0,
    headers,
    url: url.href,
    ...(body instanceof ReadableStream ? { body } : {}),
    text,
    json: async () => JSON.parse(await text()) as unknown,
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
};

// Node's socket, TLS and parser errors carry no header values, so their wording is safe to show.
function describeNetworkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && networkReasons[code]) return networkReasons[code];
  if (code?.startsWith('HPE_')) return 'invalid HTTP response';
  return error instanceof Error && error.message ? error.message : 'unknown error';
}
