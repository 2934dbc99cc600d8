import type { WebSocket } from 'ws';
import type { RealtimeServerMessage } from '@crewline/contracts';
import type { EventBus } from '../../platform/events';

/** A client that stops reading (tab frozen, slow link) is cut off rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Protocol-level pings find half-open connections (laptop lid closed) that would never send a close. */
const HEARTBEAT_MS = 30_000;

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;

/**
 * Fans the bus's events out to the sockets subscribed to each organization. One bus subscription
 * serves every socket; sockets are indexed by organization so an event costs one map lookup.
 */
export function createRealtimeHub(events: EventBus) {
  const socketsByOrg = new Map<string, Set<WebSocket>>();
  const orgsBySocket = new Map<WebSocket, Set<string>>();
  const alive = new WeakSet<WebSocket>();

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

  function leave(socket: WebSocket) {
    for (const organizationId of orgsBySocket.get(socket) ?? []) {
      const sockets = socketsByOrg.get(organizationId);
      sockets?.delete(socket);
      if (sockets?.size === 0) socketsByOrg.delete(organizationId);
    }
    orgsBySocket.delete(socket);
  }

  return {
    /** Starts tracking an authenticated socket; it is forgotten when it closes. */
    track(socket: WebSocket) {
      orgsBySocket.set(socket, new Set());
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
