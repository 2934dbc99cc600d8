// The realtime connection without React (docs/product-rules.md):
// - a websocket on the same host at /ws (wss: when the page is https), `?token=<authToken>`;
// - after open: {type:'subscribe', organizationId}, then {type:'ping'} every 30 000 ms while open;
// - after a close: reconnect in 1 s, 2 s, 4 s, 8 s, 16 s (5 attempts), then give up; a successful
//   open resets the count;
// - after a 4401 (token refused) never again; after a 4429 (the user has too many
//   sockets open, e.g. tabs) in 60 s, giving up after 5 such refusals in a row;
// - parse and connect errors are only logged.
// Kept free of React so it is easy to test with a fake WebSocket and fake timers. Messages are read
// with the contracts' schema, so this module brings zod: `realtime.tsx` wraps it in a provider and
// loads it only once the signed-in page is up (the fan-out to the screens is in realtime-hub.ts).
import {
  MAX_WATCHED_WORKFLOWS,
  realtimeEventSchema,
  realtimeServerMessageSchema,
  type RealtimeClientMessage,
  type RealtimeEvent,
  type RealtimeServerMessage,
} from '@crewline/contracts';

import type { RealtimeStatus } from './realtime-hub';

// The hub has no schema, so the shell imports it without zod; the tests find it here too.
export { createRealtimeHub, matchesEventTypes, type RealtimeHub, type RealtimeStatus } from './realtime-hub';

export const REALTIME_MAX_RECONNECT_ATTEMPTS = 5;
export const REALTIME_RECONNECT_BASE_DELAY_MS = 1000;
export const REALTIME_PING_INTERVAL_MS = 30_000;
export const REALTIME_PATH = '/ws';
/** The server's close code for a missing, expired or revoked token: retrying cannot help. */
export const REALTIME_UNAUTHORIZED_CLOSE_CODE = 4401;
/**
 * The server's close code for a socket past the user's limit of open sockets. It arrives right after
 * an open (which resets the backoff), so it gets its own slow schedule instead of the 1 s retry.
 */
export const REALTIME_TOO_MANY_CONNECTIONS_CLOSE_CODE = 4429;
export const REALTIME_TOO_MANY_CONNECTIONS_RETRY_MS = 60_000;

/**
 * Delay before reconnect attempt number `attempt` (1-based): 1000, 2000, 4000, 8000, 16000 ms;
 * null once the attempts are used up (give up).
 */
export function reconnectDelay(
  attempt: number,
  maxAttempts = REALTIME_MAX_RECONNECT_ATTEMPTS,
  baseDelayMs = REALTIME_RECONNECT_BASE_DELAY_MS,
): number | null {
  if (attempt < 1 || attempt > maxAttempts) return null;
  return baseDelayMs * 2 ** (attempt - 1);
}

/** ws(s)://<same host>/ws?token=… — the secure scheme when the page is served over https. */
export function realtimeUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${REALTIME_PATH}?token=${encodeURIComponent(token)}`;
}

/** Every event type of the contracts. */
export const REALTIME_EVENT_TYPES: readonly RealtimeEvent['type'][] = realtimeEventSchema.options.map(
  (option) => option.shape.type.value,
);
const eventTypes = new Set<string>(REALTIME_EVENT_TYPES);

/**
 * One websocket frame as a server message, or null when it is not one we know (bad JSON, unknown
 * type, missing or mistyped fields). Fields the contracts do not name are dropped.
 */
export function parseServerMessage(data: unknown): RealtimeServerMessage | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = realtimeServerMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function isRealtimeEvent(message: RealtimeServerMessage): message is RealtimeEvent {
  return eventTypes.has(message.type);
}

/** The part of the browser WebSocket the connection uses (a fake one in tests). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const WS_OPEN = 1;

export interface RealtimeConnectionOptions {
  url: string;
  organizationId: string;
  /** Opens a socket; defaults to the browser's WebSocket. */
  createSocket?: (url: string) => WebSocketLike;
  onEvent: (event: RealtimeEvent) => void;
  onStatus?: (status: RealtimeStatus) => void;
  /** The server refused the token (close code 4401); the connection does not retry. */
  onUnauthorized?: () => void;
  /** Where parse and connect errors go (console.warn by default). */
  warn?: (...args: unknown[]) => void;
  maxReconnectAttempts?: number;
  reconnectBaseDelayMs?: number;
  pingIntervalMs?: number;
  /** The wait after a 4429 (too many open connections). */
  tooManyConnectionsRetryMs?: number;
}

/**
 * One live connection: open, subscribe, ping, reconnect with backoff, give up. `close()` ends it for
 * good (logout, unmount); nothing reconnects after that.
 */
export class RealtimeConnection {
  private socket: WebSocketLike | null = null;
  private attempts = 0;
  /** 4429 refusals since the server last accepted a subscription. */
  private refusals = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private currentStatus: RealtimeStatus = 'closed';
  /** The workflows to watch (sent once subscribed, and again after each reconnect). */
  private watched: string[] = [];
  private subscribed = false;
  private readonly options: Required<
    Pick<
      RealtimeConnectionOptions,
      | 'createSocket'
      | 'warn'
      | 'maxReconnectAttempts'
      | 'reconnectBaseDelayMs'
      | 'pingIntervalMs'
      | 'tooManyConnectionsRetryMs'
    >
  > &
    RealtimeConnectionOptions;

  constructor(options: RealtimeConnectionOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      warn: (...args) => console.warn(...args),
      maxReconnectAttempts: REALTIME_MAX_RECONNECT_ATTEMPTS,
      reconnectBaseDelayMs: REALTIME_RECONNECT_BASE_DELAY_MS,
      pingIntervalMs: REALTIME_PING_INTERVAL_MS,
      tooManyConnectionsRetryMs: REALTIME_TOO_MANY_CONNECTIONS_RETRY_MS,
      ...options,
    };
  }

  get status(): RealtimeStatus {
    return this.currentStatus;
  }

  /** Reconnect attempts made since the last successful open. */
  get reconnectAttempts(): number {
    return this.attempts;
  }

  start(): void {
    if (this.stopped || this.socket) return;
    this.connect();
  }

  /** Watches these workflows' runs live from now on (the server streams their steps' answers). */
  setWatching(workflowIds: readonly string[]): void {
    const next = [...new Set(workflowIds)].slice(0, MAX_WATCHED_WORKFLOWS);
    if (next.length === this.watched.length && next.every((id, i) => id === this.watched[i])) return;
    this.watched = next;
    if (this.subscribed) this.sendWatching();
  }

  private sendWatching(): void {
    this.send({ type: 'watch', organizationId: this.options.organizationId, workflowIds: this.watched });
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearReconnect();
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
      try {
        socket.close(1000, 'client closed');
      } catch {
        // already closing
      }
    }
    this.setStatus('closed');
  }

  private setStatus(status: RealtimeStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.options.onStatus?.(status);
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.setStatus('connecting');
    let socket: WebSocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch (error) {
      this.options.warn('Realtime: could not open the connection', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.attempts = 0;
      this.subscribed = false;
      this.setStatus('open');
      this.send({ type: 'subscribe', organizationId: this.options.organizationId });
      this.stopPing();
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), this.options.pingIntervalMs);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.handleMessage(event.data);
    };
    socket.onerror = (event) => {
      if (socket !== this.socket) return;
      this.options.warn('Realtime: connection error', event);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.subscribed = false;
      this.stopPing();
      if (event?.code === REALTIME_UNAUTHORIZED_CLOSE_CODE) {
        this.options.warn('Realtime: the server refused the session token');
        this.stopped = true;
        this.setStatus('closed');
        this.options.onUnauthorized?.();
        return;
      }
      if (event?.code === REALTIME_TOO_MANY_CONNECTIONS_CLOSE_CODE) {
        this.refusals += 1;
        if (this.refusals > this.options.maxReconnectAttempts) {
          this.options.warn('Realtime: gave up: too many connections are open for this user');
          this.setStatus('closed');
          return;
        }
        this.options.warn('Realtime: too many connections are open for this user; retrying later');
        this.scheduleReconnect(this.options.tooManyConnectionsRetryMs);
        return;
      }
      this.scheduleReconnect();
    };
  }

  private handleMessage(data: unknown): void {
    const message = parseServerMessage(data);
    if (!message) {
      this.options.warn('Realtime: ignored a message that could not be parsed', data);
      return;
    }
    if (message.type === 'error') {
      this.options.warn('Realtime: server error', message.message);
      return;
    }
    if (message.type === 'subscribed') {
      this.refusals = 0;
      this.subscribed = true;
      // The server forgets a closed socket's watches: a new connection says them again.
      if (this.watched.length > 0) this.sendWatching();
    }
    if (!isRealtimeEvent(message)) return; // subscribed, pong
    try {
      this.options.onEvent(message);
    } catch (error) {
      this.options.warn('Realtime: an event handler failed', error);
    }
  }

  /** The next attempt on the backoff schedule, or after `delayMs` when given. */
  private scheduleReconnect(delayMs?: number): void {
    if (this.stopped) return;
    const attempt = this.attempts + 1;
    const scheduled = reconnectDelay(
      attempt,
      this.options.maxReconnectAttempts,
      this.options.reconnectBaseDelayMs,
    );
    const delay = scheduled === null ? null : (delayMs ?? scheduled);
    if (delay === null) {
      this.options.warn(`Realtime: gave up after ${this.options.maxReconnectAttempts} reconnect attempts`);
      this.setStatus('closed');
      return;
    }
    this.attempts = attempt;
    // Waiting to reconnect counts as connecting: the client is still trying.
    this.setStatus('connecting');
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private stopPing(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private send(message: RealtimeClientMessage): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WS_OPEN) return;
    try {
      socket.send(JSON.stringify(message));
    } catch (error) {
      this.options.warn('Realtime: could not send', error);
    }
  }
}
