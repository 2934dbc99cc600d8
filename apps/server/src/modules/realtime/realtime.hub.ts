import type { WebSocket } from 'ws';
import { realtimeMessages, type RealtimeServerMessage } from '@crewline/contracts';
import type { EventBus, SessionChange } from '../../platform/events';
import { metrics } from '../../platform/metrics/metrics';
import { channels } from '../../platform/notifications/channels';
import { WATCH_ANNOUNCE_MS, watchKey } from './watched-workflows';

/** Close code for a missing, forged, expired or revoked token (4000-4999 are the application's). */
export const UNAUTHORIZED_CLOSE_CODE = 4401;
/** Close code for a socket past the user's limit of open sockets (`WS_MAX_PER_USER`). */
const TOO_MANY_SOCKETS_CLOSE_CODE = 4429;
const TOO_MANY_SOCKETS_REASON = 'Too many open connections';

/** A client that stops reading (tab frozen, slow link) is cut off rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Protocol-level pings find half-open connections (laptop lid closed) that would never send a close;
 * on the same beat every socket's session and memberships are checked again.
 */
const HEARTBEAT_MS = 30_000;

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;

/** Who a socket authenticated as. */
export type SocketSession = { sessionId: string; userId: string; organizationId: string };

/** The TCP connection under a socket (the upgraded request's), which can hold writes back. */
export type Corkable = { cork(): void; uncork(): void };

export type RealtimeHubOptions = {
  /**
   * Open sockets one user may hold in this process. Counted per process, not across processes: a
   * shared count would need state outside the process (a table, kept right through crashes) for a
   * limit that only bounds resources, and each process's own resources are what it protects.
   */
  maxSocketsPerUser: number;
  /** For each session still live, the organizations its user may follow (one query for all sockets). */
  followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>>;
  onCheckFailed(err: unknown): void;
};

/**
 * Fans the bus's events out to the sockets subscribed to each organization. One bus subscription
 * serves every socket; sockets are indexed by organization so an event costs one map lookup.
 *
 * A socket is authenticated at connect. A logout, a password change or a removed membership is
 * announced on the bus (every process hears it) and acted on at once: the sockets of ended sessions
 * close with 4401, so the browser re-checks its session and signs out, and a left organization's
 * feed stops. Each heartbeat also re-checks every socket's session, the safety net for expiries and
 * for announcements lost while the bus reconnected.
 */
export function createRealtimeHub(events: EventBus, options: RealtimeHubOptions) {
  const socketsByOrg = new Map<string, Set<WebSocket>>();
  const orgsBySocket = new Map<WebSocket, Set<string>>();
  const sessionBySocket = new Map<WebSocket, SocketSession>();
  const socketsByUser = new Map<string, Set<WebSocket>>();
  const alive = new WeakSet<WebSocket>();
  let checking: Promise<void> | undefined;
  /** The workflows each socket watches, by organization (the watch message). */
  const watchesBySocket = new Map<WebSocket, Map<string, string[]>>();
  /** When this process last announced each watched workflow. */
  const announced = new Map<string, number>();
  /**
   * Each socket's connection, and those holding frames until the current task ends: a delivery's
   * events (a run's started, step and completed events arrive together) leave in one system call per
   * socket rather than one per event, the same frames on the wire.
   */
  const connectionOf = new WeakMap<WebSocket, Corkable>();
  const corked = new Set<Corkable>();
  const uncorkAll = () => {
    for (const connection of corked) connection.uncork();
    corked.clear();
  };

  const unsubscribe = events.listen(channels.events, {
    onNotify(batch) {
      for (const event of batch) {
        const sockets = socketsByOrg.get(event.organizationId);
        if (!sockets) continue;
        const data = JSON.stringify(event);
        for (const socket of sockets) sendRaw(socket, data);
      }
    },
  });
  const unsubscribeSessions = events.listen(channels.sessions, {
    onNotify: applySessionChange,
    onMissed: () => void recheckSessions(),
  });

  const heartbeat = setInterval(() => {
    for (const socket of orgsBySocket.keys()) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
    void recheckSessions();
  }, HEARTBEAT_MS);
  heartbeat.unref();

  // Every watched workflow again, before its last announcement runs out (watched-workflows.ts).
  const announcing = setInterval(() => {
    const keys = new Set<string>();
    for (const watches of watchesBySocket.values())
      for (const [organizationId, workflowIds] of watches)
        for (const workflowId of workflowIds) keys.add(watchKey(organizationId, workflowId));
    announced.clear();
    const at = Date.now();
    for (const key of keys) announced.set(key, at);
    if (keys.size > 0) void events.publishWatching([...keys]);
  }, WATCH_ANNOUNCE_MS);
  announcing.unref();

  function sendRaw(socket: WebSocket, data: string) {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    const connection = connectionOf.get(socket);
    if (connection && !corked.has(connection)) {
      if (corked.size === 0) process.nextTick(uncorkAll);
      connection.cork();
      corked.add(connection);
    }
    socket.send(data);
  }

  function unfollow(socket: WebSocket, organizationId: string) {
    orgsBySocket.get(socket)?.delete(organizationId);
    watchesBySocket.get(socket)?.delete(organizationId);
    const sockets = socketsByOrg.get(organizationId);
    sockets?.delete(socket);
    if (sockets?.size === 0) socketsByOrg.delete(organizationId);
  }

  function leave(socket: WebSocket) {
    for (const organizationId of orgsBySocket.get(socket) ?? []) unfollow(socket, organizationId);
    orgsBySocket.delete(socket);
    watchesBySocket.delete(socket);
    const session = sessionBySocket.get(socket);
    sessionBySocket.delete(socket);
    if (!session) return;
    metrics.websocketClosed();
    const userSockets = socketsByUser.get(session.userId);
    userSockets?.delete(socket);
    if (userSockets?.size === 0) socketsByUser.delete(session.userId);
  }

  /** Forgets the socket at once (no event reaches it after this) and tells the client why. */
  function end(socket: WebSocket) {
    leave(socket);
    socket.close(UNAUTHORIZED_CLOSE_CODE, realtimeMessages.unauthorized);
  }

  function applySessionChange(change: SessionChange) {
    if (change.type === 'session_ended') {
      for (const [socket, session] of sessionBySocket) {
        if (session.sessionId === change.sessionId) end(socket);
      }
      return;
    }
    for (const socket of [...(socketsByUser.get(change.userId) ?? [])]) {
      const session = sessionBySocket.get(socket)!;
      if (change.type === 'user_sessions_ended') {
        if (session.sessionId !== change.exceptSessionId) end(socket);
      } else if (session.organizationId === change.organizationId) {
        // Signed in to the organization left: the session no longer authenticates.
        end(socket);
      } else {
        unfollow(socket, change.organizationId);
      }
    }
  }

  /** Closes the sockets of sessions that ended and drops organizations their users left. */
  function recheckSessions(): Promise<void> {
    // One check at a time: a slow database must not pile up queries beat after beat.
    checking ??= (async () => {
      const sockets = [...sessionBySocket];
      if (sockets.length === 0) return;
      const live = await options.followableOrganizations([
        ...new Set(sockets.map(([, session]) => session.sessionId)),
      ]);
      for (const [socket, session] of sockets) {
        // Closed (or ended by an announcement) while the query ran.
        if (!sessionBySocket.has(socket)) continue;
        const followable = live.get(session.sessionId);
        if (!followable) {
          end(socket);
          continue;
        }
        for (const organizationId of orgsBySocket.get(socket) ?? []) {
          if (!followable.has(organizationId)) unfollow(socket, organizationId);
        }
      }
    })()
      .catch(options.onCheckFailed)
      .finally(() => (checking = undefined));
    return checking;
  }

  return {
    /**
     * Starts tracking a socket authenticated by the session; it is forgotten when it closes. Past the
     * user's limit the socket is closed with 4429 instead, and false returned. `connection` is the
     * TCP connection under it, whose writes the hub batches.
     */
    track(socket: WebSocket, session: SocketSession, connection?: Corkable): boolean {
      let userSockets = socketsByUser.get(session.userId);
      if ((userSockets?.size ?? 0) >= options.maxSocketsPerUser) {
        socket.close(TOO_MANY_SOCKETS_CLOSE_CODE, TOO_MANY_SOCKETS_REASON);
        return false;
      }
      if (!userSockets) socketsByUser.set(session.userId, (userSockets = new Set()));
      userSockets.add(socket);
      orgsBySocket.set(socket, new Set());
      sessionBySocket.set(socket, session);
      if (connection) connectionOf.set(socket, connection);
      metrics.websocketOpened();
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
      socket.on('message', () => alive.add(socket));
      socket.on('close', () => leave(socket));
      return true;
    },

    /** From now on the socket receives the organization's events (the caller checked membership). */
    join(socket: WebSocket, organizationId: string) {
      const orgs = orgsBySocket.get(socket);
      // Closed while the membership check ran: nothing to join.
      if (!orgs || socket.readyState !== socket.OPEN) return false;
      orgs.add(organizationId);
      let sockets = socketsByOrg.get(organizationId);
      if (!sockets) socketsByOrg.set(organizationId, (sockets = new Set()));
      sockets.add(socket);
      return true;
    },

    /**
     * The workflows the socket now watches in an organization it follows (false when it does not):
     * any not announced lately is announced at once, so a run started right after streams from its
     * first step.
     */
    watch(socket: WebSocket, organizationId: string, workflowIds: string[]): boolean {
      if (!orgsBySocket.get(socket)?.has(organizationId)) return false;
      let watches = watchesBySocket.get(socket);
      if (!watches) watchesBySocket.set(socket, (watches = new Map()));
      if (workflowIds.length === 0) watches.delete(organizationId);
      else watches.set(organizationId, [...new Set(workflowIds)]);
      const at = Date.now();
      const fresh = workflowIds
        .map((workflowId) => watchKey(organizationId, workflowId))
        .filter((key) => (announced.get(key) ?? -Infinity) <= at - WATCH_ANNOUNCE_MS);
      for (const key of fresh) announced.set(key, at);
      if (fresh.length > 0) void events.publishWatching(fresh);
      return true;
    },

    send(socket: WebSocket, message: RealtimeServerMessage) {
      sendRaw(socket, JSON.stringify(message));
    },

    /** Runs the heartbeat's session check now (tests). */
    recheckSessions,

    /** How many sockets follow the organization (tests and diagnostics). */
    subscriberCount(organizationId: string) {
      return socketsByOrg.get(organizationId)?.size ?? 0;
    },

    close() {
      clearInterval(heartbeat);
      clearInterval(announcing);
      unsubscribe();
      unsubscribeSessions();
    },
  };
}
