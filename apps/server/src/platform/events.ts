import pg from 'pg';
import type { RealtimeEvent } from '@crewline/contracts';
import { CONNECT_TIMEOUT_MS, type SqlExecutor } from '@crewline/db';
import { channels, quoteChannel, type Channel, type SessionChange } from './notifications/channels';
import { statementNotification, type StatementNotification } from './notifications/statement';

export { sessionChangeSchema, type SessionChange } from './notifications/channels';

/** What `listen` calls: each payload as sent; `onMissed` after a reconnect (notifications sent meanwhile are lost). */
export type NotificationHandler<Payload> = { onNotify(payload: Payload): void; onMissed?(): void };

/**
 * The server's notifications (docs/architecture.md, Realtime and notifications), over the channels of
 * notifications/channels.ts. Services publish domain events here and the realtime hub delivers them to
 * the organization's websocket clients; session changes, watched workflows, run control and knowledge
 * wake-ups travel the same way. Sends may return a promise (the Postgres bus's) that never rejects.
 *
 * `listen` is the one way to subscribe, to any channel (`bus.listen(channels.sessions, { onNotify,
 * onMissed })`); the events channel delivers a list, one event or several in their order.
 * `inStatement` is the one way to send for a statement (both buses have it, so no caller publishes
 * instead). Given the `executor` of the transaction that revoked sessions, the Postgres bus sends
 * their change in that transaction: delivered only on commit, so a process that hears it already sees
 * the revoked rows, and a failed NOTIFY rolls the revocation back.
 */
export type EventBus = {
  /** Sends `payload` on `channel` now. */
  send<Payload>(channel: Channel<Payload>, payload: Payload): void | Promise<void>;
  /**
   * The notification that sends `payload` for the statement that makes it true, as a column of its
   * RETURNING (notifications/statement.ts, `notified`): only if the statement changed a row, once its
   * transaction has committed.
   */
  inStatement<Payload>(channel: Channel<Payload>, payload: Payload): StatementNotification;
  /** Runs `handler` for every notification on `channel` (this process's own included); returns the unsubscribe. */
  listen<Payload>(channel: Channel<Payload>, handler: NotificationHandler<Payload>): () => void;

  publish(event: RealtimeEvent): void | Promise<void>;
  /** `inStatement` on the events channel; several events travel in one notification, in their order. */
  statementNotification(events: RealtimeEvent | RealtimeEvent[]): StatementNotification;
  publishSessionChange(change: SessionChange, executor?: SqlExecutor): Promise<void>;
  /**
   * Workflows someone is watching live (`organizationId/workflowId` keys), announced by the process
   * that holds their sockets to every process (the workers stream those workflows' steps). Never
   * rejects; a lost announcement is repeated by the next one.
   */
  publishWatching(keys: string[]): void | Promise<void>;
};

/** The events channel's senders, on top of `send` and `inStatement`. */
function eventSenders(
  bus: Pick<EventBus, 'send' | 'inStatement'>,
): Pick<EventBus, 'publish' | 'statementNotification'> {
  return {
    publish: (event) => bus.send(channels.events, [event]),
    statementNotification: (events) =>
      bus.inStatement(channels.events, Array.isArray(events) ? events : [events]),
  };
}

/** A failing subscriber must never break the request that published, nor the other subscribers. */
function safely(call: () => void, onError?: (err: unknown) => void) {
  try {
    call();
  } catch (err) {
    onError?.(err);
  }
}

/**
 * The in-process bus: one process, synchronous delivery (tests, and the Postgres bus's local
 * fan-out). A statement's notification is delivered once its transaction has committed; with no other
 * process to tell, a session change is delivered at once (the executor goes unused).
 */
export function createEventBus() {
  const handlers = new Map<string, Set<NotificationHandler<unknown>>>();

  function deliver<Payload>(channel: Channel<Payload>, payload: Payload) {
    for (const handler of handlers.get(channel.name) ?? []) safely(() => handler.onNotify(payload));
  }

  const core = {
    send<Payload>(channel: Channel<Payload>, payload: Payload) {
      deliver(channel, payload);
    },
    inStatement<Payload>(channel: Channel<Payload>, payload: Payload) {
      return statementNotification(() => deliver(channel, payload));
    },
    listen<Payload>(channel: Channel<Payload>, handler: NotificationHandler<Payload>): () => void {
      let set = handlers.get(channel.name);
      if (!set) handlers.set(channel.name, (set = new Set()));
      const entry = handler as NotificationHandler<unknown>;
      set.add(entry);
      return () => set.delete(entry);
    },
    /** Tells every listener that notifications may have been lost (the Postgres bus, after a reconnect). */
    missed() {
      for (const set of handlers.values()) for (const handler of set) safely(() => handler.onMissed?.());
    },
  };

  return {
    ...core,
    ...eventSenders(core),
    async publishSessionChange(change: SessionChange, _executor?: SqlExecutor): Promise<void> {
      deliver(channels.sessions, change);
    },
    publishWatching(keys: string[]) {
      deliver(channels.watch, keys);
    },
  } satisfies EventBus & { missed(): void };
}

/** The NOTIFY channel realtime events travel on between processes. */
export const EVENTS_CHANNEL = channels.events.name;
/** The NOTIFY channel session changes travel on between processes (same LISTEN connection). */
export const SESSIONS_CHANNEL = channels.sessions.name;
/** The NOTIFY channel watched workflows are announced on (EventBus.publishWatching). */
export const WATCH_CHANNEL = channels.watch.name;

/**
 * The outbox's statement: its notifications in their order, in a transaction that does not wait for
 * the disk (a notification needs no durability: a crash loses it either way).
 */
const NOTIFY_BATCH = `SELECT set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
  FROM unnest($1::text[], $2::text[]) AS n(channel, payload)`;

/** Postgres refuses NOTIFY payloads of 8000 bytes or more; events are ids and numbers, far below. */
const MAX_PAYLOAD_BYTES = 7900;
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 10_000;
/** Own events awaiting their NOTIFY: far more than are ever in flight at once. */
const SENT_REMEMBERED = 10_000;

/** How a dropped notification of each channel is logged (the channel's name otherwise). */
const DROPPED: Record<string, string> = {
  [channels.events.name]: 'dropped an invalid realtime event notification',
  [channels.sessions.name]: 'dropped an invalid session change notification',
  [channels.watch.name]: 'dropped an invalid watch notification',
};

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
  /**
   * No other process uses the database (the embedded PostgreSQL, which only the process that started
   * it reaches): what this process sends is delivered here, after its statement's commit, without a
   * NOTIFY. The LISTEN connection still hears what statements send themselves (wake-ups the database
   * draws, session changes in the revoking transaction).
   */
  alone?: boolean;
};

/** Called with a notification's raw payload; `onMissed` runs after a reconnect (notifications sent meanwhile are lost). */
export type ChannelHandler = { onNotify(payload: string): void; onMissed?(): void };

export type PgEventBus = EventBus & {
  /** Resolves once Postgres took the NOTIFY; never rejects (failures are logged). */
  send<Payload>(channel: Channel<Payload>, payload: Payload): Promise<void>;
  publish(event: RealtimeEvent): Promise<void>;
  publishWatching(keys: string[]): Promise<void>;
  /** The transport under `send`: `pg_notify(channel, payload)` from the outbox, through the pool; never rejects. */
  notify(channel: string, payload?: string): Promise<void>;
  /** The transport under `listen`: raw payloads of `channel`, over the bus's one LISTEN connection. */
  onChannel(channel: string, handler: ChannelHandler | ((payload: string) => void)): () => void;
  /** Connects the listener; rejects when the first connection fails (the caller decides to exit). */
  start(): Promise<void>;
  /** Ends the listener and any pending reconnect; publishing still works until the pool closes. */
  stop(): Promise<void>;
};

/**
 * The bus across processes (docs/architecture.md, Realtime and notifications): a send is
 * `pg_notify` on the channel, and one LISTEN connection per process delivers every notification —
 * this process's own included, so there is a single delivery path and nothing arrives twice. Every
 * channel of the registry (notifications/channels.ts) shares the connection.
 *
 * A process `alone` on its database delivers what it sends itself, with no NOTIFY (one statement
 * less per notification, and no trip back through the LISTEN connection).
 *
 * Call `start()` before serving: until the listener is connected, nothing is delivered locally.
 * While it reconnects (Postgres restart), notifications are lost; realtime events are hints that
 * make clients refetch, worker wake-ups have `onMissed` plus the queues' own polling, and session
 * changes have `onMissed` (the hub re-checks every socket) plus its heartbeat.
 */
export function createPgEventBus(options: PgEventBusOptions): PgEventBus {
  const { databaseUrl, pool, logger } = options;
  const applicationName = options.applicationName ?? 'crewline-listener';
  const local = createEventBus();
  const raw = new Map<string, Set<ChannelHandler>>();
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

  /** Each registry channel is decoded once per notification, then fanned out by the local bus. */
  function decoding<Payload>(channel: Channel<Payload>): ChannelHandler {
    return {
      onNotify(text) {
        let payload: Payload;
        const own = channel.name === channels.events.name ? sent.get(text) : undefined;
        if (own) {
          sent.delete(text);
          payload = own as Payload;
        } else {
          try {
            payload = channel.decode(text);
          } catch (err) {
            const message = DROPPED[channel.name] ?? `dropped an invalid ${channel.name} notification`;
            // The watch channel's line names no error: its payloads are workflow keys, nothing to show.
            if (channel.name === channels.watch.name) logger.warn({ channel: channel.name }, message);
            else logger.warn({ err, channel: channel.name }, message);
            return;
          }
        }
        local.send(channel, payload);
      },
    };
  }
  for (const channel of Object.values(channels) as Channel<unknown>[])
    raw.set(channel.name, new Set([decoding(channel)]));

  function dispatch(channel: string, payload: string) {
    for (const handler of raw.get(channel) ?? []) safely(() => handler.onNotify(payload), failed(channel));
  }
  const failed = (channel: string) => (err: unknown) =>
    logger.warn({ err, channel }, 'a notification handler failed');

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
      for (const channel of raw.keys()) await next.query(`LISTEN ${quoteChannel(channel)}`);
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
          for (const [channel, handlers] of raw)
            for (const h of handlers) safely(() => h.onMissed?.(), failed(channel));
          local.missed();
        },
        (err: unknown) => {
          logger.warn({ err, attempt }, 'could not reconnect the Postgres LISTEN connection');
          scheduleReconnect();
        },
      );
    }, delay);
  }

  const tooLarge = (channel: string, payload: string) => {
    const bytes = Buffer.byteLength(payload);
    if (bytes <= MAX_PAYLOAD_BYTES) return false;
    logger.warn({ channel, bytes }, 'notification payload too large; dropped');
    return true;
  };

  /**
   * The outbox: notifications wait here for the statement that sends them, one at a time, each taking
   * all that came meanwhile, in their order. NOTIFY inside the transactions that cause them made
   * Postgres commit those one after another (it holds one lock for the whole database from a
   * notifying commit's start to its end, the wait for the disk included); here, the commits of runs
   * group on the disk, and the notifying statement writes nothing that must reach it
   * (synchronous_commit off for it alone). docs/decisions/0055-notifications-after-commit.md.
   */
  let outbox: { channels: string[]; payloads: string[]; sent: Promise<void>; done: () => void } | undefined;
  let draining: Promise<void> | undefined;

  async function drain() {
    while (outbox) {
      const batch = outbox;
      outbox = undefined;
      try {
        await pool.query(NOTIFY_BATCH, [batch.channels, batch.payloads]);
      } catch (err) {
        logger.warn({ err, channels: [...new Set(batch.channels)] }, 'could not publish notifications');
      }
      batch.done();
    }
    draining = undefined;
  }

  /** Sends `payload` on `channel` with the outbox's next statement; resolves either way once it ran. */
  function notify(channel: string, payload = ''): Promise<void> {
    if (tooLarge(channel, payload)) return Promise.resolve();
    if (!outbox) {
      let done!: () => void;
      const sent = new Promise<void>((resolve) => (done = resolve));
      outbox = { channels: [], payloads: [], sent, done };
    }
    outbox.channels.push(channel);
    outbox.payloads.push(payload);
    const { sent } = outbox;
    // From the next microtask: what this task still sends (a statement's several notifications) goes too.
    draining ??= Promise.resolve().then(drain);
    return sent;
  }

  /** The payload of `payload` on `channel`, remembered when it is this process's events. */
  function encode<Payload>(channel: Channel<Payload>, payload: Payload): string {
    const text = channel.encode(payload);
    if (channel.name === channels.events.name) remember(text, payload as RealtimeEvent[]);
    return text;
  }

  const shared = {
    send<Payload>(channel: Channel<Payload>, payload: Payload) {
      return notify(channel.name, encode(channel, payload));
    },
    inStatement<Payload>(channel: Channel<Payload>, payload: Payload): StatementNotification {
      // Events too many for one NOTIFY go in several, in order; one that no NOTIFY holds is dropped
      // (logged), as send drops it.
      const parts: { payload: Payload; text: string }[] =
        channel.name === channels.events.name
          ? (eventNotifications(payload as RealtimeEvent[]) as { payload: Payload; text: string }[])
          : [{ payload, text: channel.encode(payload) }];
      const texts: string[] = [];
      for (const { payload: part, text } of parts) {
        if (tooLarge(channel.name, text)) continue;
        if (channel.name === channels.events.name) remember(text, part as RealtimeEvent[]);
        texts.push(text);
      }
      return statementNotification(() => {
        for (const text of texts) void notify(channel.name, text);
      });
    },
    listen: local.listen,
  };
  // Alone on its database, a process tells only itself: at once, or after the statement's commit.
  const alone = {
    send<Payload>(channel: Channel<Payload>, payload: Payload) {
      local.send(channel, payload);
      return Promise.resolve();
    },
    inStatement: local.inStatement,
    listen: local.listen,
  };
  const core = options.alone ? alone : shared;

  return {
    ...core,
    ...eventSenders(core),
    publish: (event) => core.send(channels.events, [event]),

    async publishSessionChange(change, executor) {
      // In the caller's transaction a failure must surface (and roll the revocation back).
      if (executor)
        await executor.executeSql('SELECT pg_notify($1, $2)', [
          SESSIONS_CHANNEL,
          channels.sessions.encode(change),
        ]);
      else await core.send(channels.sessions, change);
    },

    async publishWatching(keys) {
      // As many notifications as the keys need (each under the NOTIFY limit).
      let batch: string[] = [];
      let bytes = 2;
      for (const key of keys) {
        const size = Buffer.byteLength(key) + 3;
        if (batch.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
          await core.send(channels.watch, batch);
          batch = [];
          bytes = 2;
        }
        batch.push(key);
        bytes += size;
      }
      if (batch.length > 0) await core.send(channels.watch, batch);
    },

    notify,

    onChannel(channel, handler) {
      const entry: ChannelHandler = typeof handler === 'function' ? { onNotify: handler } : handler;
      quoteChannel(channel); // validates the name now rather than at LISTEN time
      let handlers = raw.get(channel);
      if (!handlers) {
        handlers = new Set();
        raw.set(channel, handlers);
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
      // What is in the outbox still leaves (the pool outlives the bus).
      await draining;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * `events` in runs that each fit one NOTIFY (all of them, mostly: events are ids and numbers), with
 * each run's payload text: the whole list's text, encoded once, is the one payload of the usual case.
 */
function eventNotifications(events: RealtimeEvent[]): { payload: RealtimeEvent[]; text: string }[] {
  const whole = channels.events.encode(events);
  if (events.length <= 1 || Buffer.byteLength(whole) <= MAX_PAYLOAD_BYTES)
    return [{ payload: events, text: whole }];
  const runs: RealtimeEvent[][] = [];
  let run: RealtimeEvent[] = [];
  let bytes = 2;
  for (const event of events) {
    const size = Buffer.byteLength(JSON.stringify(event)) + 1;
    if (run.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
      runs.push(run);
      run = [];
      bytes = 2;
    }
    run.push(event);
    bytes += size;
  }
  runs.push(run);
  return runs.map((part) => ({ payload: part, text: channels.events.encode(part) }));
}
