import { sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { realtimeEventSchema, type RealtimeEvent } from '@crewline/contracts';
import { CONNECT_TIMEOUT_MS, type SqlExecutor } from '@crewline/db';

type Listener = (event: RealtimeEvent) => void;

/**
 * Sessions that ended or a membership that was removed: every process closes or trims the
 * websockets concerned. Ids only, so the notification stays small however many sessions a user has.
 */
export const sessionChangeSchema = z.discriminatedUnion('type', [
  /** Logout: that session's sockets close. */
  z.object({ type: z.literal('session_ended'), sessionId: z.string() }),
  /** E.g. a password change: every session of the user ends except the one that made the change. */
  z.object({
    type: z.literal('user_sessions_ended'),
    userId: z.string(),
    exceptSessionId: z.string().optional(),
  }),
  /** The user left the organization: its feed stops, and sessions signed in to it end. */
  z.object({ type: z.literal('membership_ended'), userId: z.string(), organizationId: z.string() }),
]);
export type SessionChange = z.infer<typeof sessionChangeSchema>;

/** `onMissed` runs when changes may have been lost (the Postgres bus reconnected): check everything again. */
export type SessionChangeListener = { onChange(change: SessionChange): void; onMissed?(): void };

/**
 * The server's event bus. Services publish domain events here; the realtime hub delivers them to the
 * organization's websocket clients. `publish` may return a promise (the Postgres bus does) that
 * never rejects, so callers may await it or not.
 *
 * Session changes travel beside the events, to every process's hub. Given the `executor` of the
 * transaction that revoked the sessions, the Postgres bus sends its NOTIFY in that transaction:
 * Postgres delivers it only on commit, so a process that hears it already sees the revoked rows, and
 * a failed NOTIFY rolls the revocation back rather than leaving sockets open unnoticed.
 */
export type EventBus = {
  publish(event: RealtimeEvent): void | Promise<void>;
  /**
   * The NOTIFY that publishes `event` from inside the statement that makes it true (`pg_notify` in
   * its RETURNING: sent at commit, only if the statement changed a row, with no round trip of its
   * own). Only a bus that delivers by NOTIFY has it; otherwise, or for an event too large for a
   * NOTIFY (undefined), the caller publishes after the statement. Several events travel in one
   * notification, in their order.
   */
  statementNotification?(events: RealtimeEvent | RealtimeEvent[]): StatementNotification | undefined;
  subscribe(listener: Listener): () => void;
  publishSessionChange(change: SessionChange, executor?: SqlExecutor): Promise<void>;
  subscribeSessionChanges(listener: SessionChangeListener): () => void;
  /**
   * Workflows someone is watching live (`organizationId/workflowId` keys), announced by the process
   * that holds their sockets to every process (the workers stream those workflows' steps). Never
   * rejects; a lost announcement is repeated by the next one.
   */
  publishWatching(keys: string[]): void | Promise<void>;
  subscribeWatching(listener: (keys: string[]) => void): () => void;
};

/**
 * The in-process bus: one process, synchronous delivery (tests and the Postgres bus's local fan-out).
 * With no other process to tell, a session change is delivered at once; the executor goes unused.
 */
export function createEventBus() {
  const listeners = new Set<Listener>();
  const sessionListeners = new Set<SessionChangeListener>();
  const watchListeners = new Set<(keys: string[]) => void>();

  function deliver<T>(targets: Iterable<T>, call: (target: T) => void) {
    for (const target of targets) {
      try {
        call(target);
      } catch {
        // A failing subscriber must never break the request that published the event.
      }
    }
  }

  return {
    publish(event: RealtimeEvent) {
      deliver(listeners, (listener) => listener(event));
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async publishSessionChange(change: SessionChange, _executor?: SqlExecutor): Promise<void> {
      deliver(sessionListeners, (listener) => listener.onChange(change));
    },
    subscribeSessionChanges(listener: SessionChangeListener): () => void {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    publishWatching(keys: string[]) {
      deliver(watchListeners, (listener) => listener(keys));
    },
    subscribeWatching(listener: (keys: string[]) => void): () => void {
      watchListeners.add(listener);
      return () => watchListeners.delete(listener);
    },
    /** Tells the session listeners that changes may have been lost (the Postgres bus, after a reconnect). */
    missedSessionChanges() {
      deliver(sessionListeners, (listener) => listener.onMissed?.());
    },
  } satisfies EventBus & { missedSessionChanges(): void };
}

/** A NOTIFY for a statement's RETURNING (see EventBus.statementNotification). */
export type StatementNotification = { channel: string; payload: string };

/** The RETURNING column that sends `notify` from the statement itself (null, and nothing sent, without). */
export const notified = (notify: StatementNotification | undefined) =>
  notify ? sql<null>`pg_notify(${notify.channel}, ${notify.payload})` : sql<null>`null`;

/** The NOTIFY channel realtime events travel on between processes. */
export const EVENTS_CHANNEL = 'crewline_events';
/** The NOTIFY channel session changes travel on between processes (same LISTEN connection). */
export const SESSIONS_CHANNEL = 'crewline_sessions';
/** The NOTIFY channel watched workflows are announced on (EventBus.publishWatching). */
export const WATCH_CHANNEL = 'crewline_watch';

/** Postgres refuses NOTIFY payloads of 8000 bytes or more; events are ids and numbers, far below. */
const MAX_PAYLOAD_BYTES = 7900;
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 10_000;
/** What a notification on the events channel holds: one event, or several in order. */
const realtimeEventsSchema = z.union([realtimeEventSchema, z.array(realtimeEventSchema).min(1)]);
/** Own events awaiting their NOTIFY: far more than are ever in flight at once. */
const SENT_REMEMBERED = 10_000;

/** The few logger methods the bus uses; a pino or Fastify logger fits. */
export type BusLogger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

export type PgEventBusOptions = {
  /** The listener gets a dedicated connection: a pooled one would be handed back and lose its LISTENs. */
  databaseUrl: string;
  /** Publishing goes through the app's pool (a short query, no dedicated connection needed). */
  pool: pg.Pool;
  logger: BusLogger;
  /** Shown in pg_stat_activity; tests set a unique one to find (and kill) this listener's backend. */
  applicationName?: string;
};

/** Called with a notification's payload; `onMissed` runs after a reconnect (notifications sent meanwhile are lost). */
export type ChannelHandler = { onNotify(payload: string): void; onMissed?(): void };

export type PgEventBus = EventBus & {
  /** Resolves once Postgres took the NOTIFY; never rejects (failures are logged). */
  publish(event: RealtimeEvent): Promise<void>;
  publishWatching(keys: string[]): Promise<void>;
  /** Always offered (undefined only for events too large for a NOTIFY). */
  statementNotification(events: RealtimeEvent | RealtimeEvent[]): StatementNotification | undefined;
  /** `pg_notify(channel, payload)` through the pool; never rejects. E.g. `notify('crewline_jobs')`. */
  notify(channel: string, payload?: string): Promise<void>;
  /** Runs `handler` for every notification on `channel`, over the bus's one LISTEN connection. */
  onChannel(channel: string, handler: ChannelHandler | ((payload: string) => void)): () => void;
  /** Connects the listener; rejects when the first connection fails (the caller decides to exit). */
  start(): Promise<void>;
  /** Ends the listener and any pending reconnect; publishing still works until the pool closes. */
  stop(): Promise<void>;
};

/**
 * The event bus across processes (docs/architecture.md, Realtime): publish is `pg_notify` on `crewline_events`, and
 * one LISTEN connection per process delivers every notification — this process's own included, so
 * there is a single delivery path and no event arrives twice. Session changes travel the same way
 * on `crewline_sessions`; other channels (the job wake-up, `crewline_jobs`) share the connection
 * through `onChannel`.
 *
 * Call `start()` before serving: until the listener is connected, nothing is delivered locally.
 * While it reconnects (Postgres restart), notifications are lost; realtime events are hints that
 * make clients refetch, job wake-ups have `onMissed` plus the queue's own polling, and session
 * changes have `onMissed` (the hub re-checks every socket) plus its heartbeat.
 */
export function createPgEventBus(options: PgEventBusOptions): PgEventBus {
  const { databaseUrl, pool, logger } = options;
  const applicationName = options.applicationName ?? 'crewline-listener';
  const local = createEventBus();
  const channels = new Map<string, Set<ChannelHandler>>();
  let client: pg.Client | undefined;
  let stopped = true;
  let attempt = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;

  /**
   * Events this process sent, by payload, until their NOTIFY comes back: its own are delivered as
   * they were made, without parsing and validating them again. Bounded, as a statement that rolled
   * back never sends its notification.
   */
  const sent = new Map<string, RealtimeEvent[]>();
  const remember = (payload: string, events: RealtimeEvent[]) => {
    sent.set(payload, events);
    if (sent.size > SENT_REMEMBERED) sent.delete(sent.keys().next().value!);
  };

  /** A notification holds one event, or an array of them in the order they happened. */
  function deliverEvent(payload: string) {
    let events = sent.get(payload);
    if (events) {
      sent.delete(payload);
    } else {
      try {
        const parsed = realtimeEventsSchema.safeParse(JSON.parse(payload));
        if (!parsed.success) throw new Error(parsed.error.message);
        events = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
      } catch (err) {
        logger.warn({ err, channel: EVENTS_CHANNEL }, 'dropped an invalid realtime event notification');
        return;
      }
    }
    for (const event of events) local.publish(event);
  }
  channels.set(EVENTS_CHANNEL, new Set([{ onNotify: deliverEvent }]));

  function deliverSessionChange(payload: string) {
    let change: SessionChange;
    try {
      const parsed = sessionChangeSchema.safeParse(JSON.parse(payload));
      if (!parsed.success) throw new Error(parsed.error.message);
      change = parsed.data;
    } catch (err) {
      logger.warn({ err, channel: SESSIONS_CHANNEL }, 'dropped an invalid session change notification');
      return;
    }
    void local.publishSessionChange(change);
  }
  channels.set(
    SESSIONS_CHANNEL,
    new Set([{ onNotify: deliverSessionChange, onMissed: () => local.missedSessionChanges() }]),
  );

  function deliverWatching(payload: string) {
    let keys: unknown;
    try {
      keys = JSON.parse(payload);
    } catch {
      keys = undefined;
    }
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) {
      logger.warn({ channel: WATCH_CHANNEL }, 'dropped an invalid watch notification');
      return;
    }
    local.publishWatching(keys as string[]);
  }
  channels.set(WATCH_CHANNEL, new Set([{ onNotify: deliverWatching }]));

  function dispatch(channel: string, payload: string) {
    for (const handler of channels.get(channel) ?? []) safely(() => handler.onNotify(payload), channel);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: databaseUrl,
      application_name: applicationName,
      // Detects a silently dropped connection (no RST) instead of waiting forever for notifications.
      keepAlive: true,
      // A connect that hangs (host unreachable) would otherwise stall the reconnect loop for good.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    next.on('notification', (message) => dispatch(message.channel, message.payload ?? ''));
    // Both fire when the server goes away; the identity check makes one reconnect out of them.
    next.on('error', (err) => lost(next, err));
    next.on('end', () => lost(next));
    await next.connect();
    try {
      for (const channel of channels.keys()) await next.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
    if (stopped) {
      // stop() was called while connecting.
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  }

  function lost(which: pg.Client, err?: Error) {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    if (stopped) return;
    logger.warn({ err }, 'lost the Postgres LISTEN connection; reconnecting');
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (stopped || reconnectTimer) return;
    // Doubling delay with jitter, so many processes do not reconnect in lockstep after a restart.
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt) * (0.75 + Math.random() / 2);
    attempt++;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().then(
        () => {
          if (stopped) return;
          attempt = 0;
          logger.info({ applicationName }, 'Postgres LISTEN connection restored');
          for (const [channel, handlers] of channels)
            for (const h of handlers) safely(() => h.onMissed?.(), channel);
        },
        (err: unknown) => {
          logger.warn({ err, attempt }, 'could not reconnect the Postgres LISTEN connection');
          scheduleReconnect();
        },
      );
    }, delay);
  }

  function safely(fn: () => void, channel: string) {
    try {
      fn();
    } catch (err) {
      logger.warn({ err, channel }, 'a notification handler failed');
    }
  }

  /** `pg_notify` through the pool; resolves either way (a lost event must not fail the caller's request). */
  async function notify(channel: string, payload = ''): Promise<void> {
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      logger.warn({ channel, bytes: Buffer.byteLength(payload) }, 'notification payload too large; dropped');
      return;
    }
    try {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    } catch (err) {
      logger.warn({ err, channel }, 'could not publish a notification');
    }
  }

  return {
    publish(event) {
      const payload = JSON.stringify(event);
      remember(payload, [event]);
      return notify(EVENTS_CHANNEL, payload);
    },

    statementNotification(events) {
      const list = Array.isArray(events) ? events : [events];
      const payload = JSON.stringify(list.length === 1 ? list[0] : list);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) return undefined;
      remember(payload, list);
      return { channel: EVENTS_CHANNEL, payload };
    },

    subscribe: local.subscribe,

    async publishSessionChange(change, executor) {
      const payload = JSON.stringify(change);
      // In the caller's transaction a failure must surface (and roll the revocation back).
      if (executor) await executor.executeSql('SELECT pg_notify($1, $2)', [SESSIONS_CHANNEL, payload]);
      else await notify(SESSIONS_CHANNEL, payload);
    },

    subscribeSessionChanges: local.subscribeSessionChanges,

    async publishWatching(keys) {
      // As many notifications as the keys need (each under the NOTIFY limit).
      let batch: string[] = [];
      let bytes = 2;
      for (const key of keys) {
        const size = Buffer.byteLength(key) + 3;
        if (batch.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
          await notify(WATCH_CHANNEL, JSON.stringify(batch));
          batch = [];
          bytes = 2;
        }
        batch.push(key);
        bytes += size;
      }
      if (batch.length > 0) await notify(WATCH_CHANNEL, JSON.stringify(batch));
    },

    subscribeWatching: local.subscribeWatching,

    notify,

    onChannel(channel, handler) {
      const entry: ChannelHandler = typeof handler === 'function' ? { onNotify: handler } : handler;
      quoteChannel(channel); // validates the name now rather than at LISTEN time
      let handlers = channels.get(channel);
      if (!handlers) {
        handlers = new Set();
        channels.set(channel, handlers);
        // If the LISTEN fails the connection is broken; the reconnect LISTENs every channel again.
        client?.query(`LISTEN ${quoteChannel(channel)}`).catch(() => undefined);
      }
      handlers.add(entry);
      return () => {
        handlers.delete(entry);
      };
    },

    async start() {
      if (!stopped) return;
      stopped = false;
      try {
        await connect();
      } catch (err) {
        stopped = true;
        throw err;
      }
    },

    async stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** Channel names are identifiers (LISTEN takes no parameters), so only plain names are accepted. */
function quoteChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
  return `"${channel}"`;
}
