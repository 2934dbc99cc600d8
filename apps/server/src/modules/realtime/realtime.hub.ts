import type { WebSocket } from 'ws';
import { realtimeMessages, type RealtimeServerMessage } from '@crewline/contracts';
import type { EventBus } from '../../platform/events';

/** Close code for a missing, forged, expired or revoked token (4000-4999 are the application's). */
export const UNAUTHORIZED_CLOSE_CODE = 4401;

/** A client that stops reading (tab frozen, slow link) is cut off rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Protocol-level pings find half-open connections (laptop lid closed) that would never send a close;
 * on the same beat every socket's session and memberships are checked again.
 */
const HEARTBEAT_MS = 30_000;

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;

export type RealtimeHubOptions = {
  /** For each session still live, the organizations its user may follow (one query for all sockets). */
  followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>>;
  onCheckFailed(err: unknown): void;
};

/**
 * Fans the bus's events out to the sockets subscribed to each organization. One bus subscription
 * serves every socket; sockets are indexed by organization so an event costs one map lookup.
 *
 * A socket is authenticated at connect; afterwards each heartbeat re-checks the sessions, so a
 * logout, an expiry or a removed membership ends the feed within one beat, in every process, and
 * the browser (told 4401) re-checks its session and signs out.
 */
export function createRealtimeHub(events: EventBus, options: RealtimeHubOptions) {
  const socketsByOrg = new Map<string, Set<WebSocket>>();
  const orgsBySocket = new Map<WebSocket, Set<string>>();
  const sessionBySocket = new Map<WebSocket, string>();
  const alive = new WeakSet<WebSocket>();
  let checking: Promise<void> | undefined;

  const unsubscribe = events.subscribe((event) => {
    const sockets = socketsByOrg.get(event.organizationId);
    if (!sockets) return;
    const data = JSON.stringify(event);
    for (const socket of sockets) sendRaw(socket, data);
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

  function sendRaw(socket: WebSocket, data: string) {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    socket.send(data);
  }

  function unfollow(socket: WebSocket, organizationId: string) {
    orgsBySocket.get(socket)?.delete(organizationId);
    const sockets = socketsByOrg.get(organizationId);
    sockets?.delete(socket);
    if (sockets?.size === 0) socketsByOrg.delete(organizationId);
  }

  function leave(socket: WebSocket) {
    for (const organizationId of orgsBySocket.get(socket) ?? []) unfollow(socket, organizationId);
    orgsBySocket.delete(socket);
    sessionBySocket.delete(socket);
  }

  /** Closes the sockets of sessions that ended and drops organizations their users left. */
  function recheckSessions(): Promise<void> {
    // One check at a time: a slow database must not pile up queries beat after beat.
    checking ??= (async () => {
      const sockets = [...sessionBySocket];
      if (sockets.length === 0) return;
      const live = await options.followableOrganizations([...new Set(sockets.map(([, id]) => id))]);
      for (const [socket, sessionId] of sockets) {
        const followable = live.get(sessionId);
        if (!followable) {
          leave(socket);
          socket.close(UNAUTHORIZED_CLOSE_CODE, realtimeMessages.unauthorized);
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
    /** Starts tracking a socket authenticated by the session; it is forgotten when it closes. */
    track(socket: WebSocket, sessionId: string) {
      orgsBySocket.set(socket, new Set());
      sessionBySocket.set(socket, sessionId);
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
      socket.on('message', () => alive.add(socket));
      socket.on('close', () => leave(socket));
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
      unsubscribe();
    },
  };
}
