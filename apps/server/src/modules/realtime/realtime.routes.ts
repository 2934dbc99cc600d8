import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { realtimeClientMessageSchema, realtimeMessages } from '@crewline/contracts';
import type { EventBus } from '../../platform/events';
import type { AuthService } from '../auth/auth.service';
import { createRealtimeHub, UNAUTHORIZED_CLOSE_CODE, type RealtimeHub } from './realtime.hub';
import type { RealtimeService } from './realtime.service';
import { socketToken } from './realtime.token';

/** Client messages are a subscribe, a watch or a ping; anything larger is not one of ours. */
const MAX_MESSAGE_BYTES = 16 * 1024;
const subscribeFailed = 'Could not subscribe right now; reconnect to try again';

/**
 * `GET /ws`: the realtime websocket (docs/product-rules.md, docs/security.md).
 *
 * It is outside /api, so the HTTP auth guard skips it and the route inventory test keeps covering
 * exactly the /api routes. It authenticates itself with the same session check as the guard, from
 * `?token=` or the `authToken` cookie, and answers a bad token by accepting the upgrade and closing
 * with 4401: a browser cannot read the status of a refused handshake, but it can read a close code.
 *
 * The session is checked at connect; ended sessions and memberships are announced on the bus, and
 * every hub heartbeat checks again (see createRealtimeHub). A user past `maxSocketsPerUser` open
 * sockets is accepted and closed with 4429, for the same reason a bad token gets 4401.
 */
export async function registerRealtime(
  app: FastifyInstance,
  deps: { auth: AuthService; events: EventBus; realtime: RealtimeService; maxSocketsPerUser: number },
): Promise<RealtimeHub> {
  // Registered before the other routes so upgrade requests to them are closed instead of left hanging.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // An unclean client disconnect is routine, not a server error.
    errorHandler(error, socket, request) {
      request.log.info({ err: error }, 'websocket error');
      socket.terminate();
    },
  });
  const hub = createRealtimeHub(deps.events, {
    maxSocketsPerUser: deps.maxSocketsPerUser,
    followableOrganizations: (sessionIds) => deps.realtime.followableOrganizations(sessionIds),
    onCheckFailed: (err) => app.log.warn({ err }, 'websocket session check failed'),
  });
  app.addHook('onClose', async () => hub.close());
  app.decorate('realtimeHub', hub);

  app.get(
    '/ws',
    {
      websocket: true,
      async preValidation(request) {
        if (!request.ws) return;
        const token = socketToken(request);
        const result = token ? await deps.auth.authenticate(token) : null;
        if (!result) return;
        request.auth = result.context;
        request.account = result.session;
      },
    },
    (socket, request) => {
      if (!request.auth) {
        socket.close(UNAUTHORIZED_CLOSE_CODE, realtimeMessages.unauthorized);
        return;
      }
      const auth = request.auth;
      // The upgraded request's connection is the socket's own (ws writes its frames to it).
      if (!hub.track(socket, auth, request.raw.socket)) return;
      // Attached synchronously (authentication already ran) so no early message is missed.
      socket.on('message', (data, isBinary) => {
        onMessage(socket, data, isBinary, (organizationId) => {
          deps.realtime.canSubscribe(auth, organizationId).then(
            (allowed) => {
              if (!allowed) hub.send(socket, { type: 'error', message: realtimeMessages.notMember });
              else if (hub.join(socket, organizationId))
                hub.send(socket, { type: 'subscribed', organizationId });
            },
            (err: unknown) => {
              request.log.warn({ err }, 'websocket subscribe failed');
              hub.send(socket, { type: 'error', message: subscribeFailed });
            },
          );
        });
      });
    },
  );

  function onMessage(
    socket: WebSocket,
    data: RawData,
    isBinary: boolean,
    subscribe: (orgId: string) => void,
  ) {
    const text = isBinary ? '' : rawText(data);
    if (text.trim() === 'ping') return hub.send(socket, { type: 'pong' });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return hub.send(socket, { type: 'error', message: realtimeMessages.badMessage });
    }
    const message = realtimeClientMessageSchema.safeParse(json);
    if (message.success && message.data.type === 'ping') return hub.send(socket, { type: 'pong' });
    if (message.success && message.data.type === 'subscribe') return subscribe(message.data.organizationId);
    if (message.success && message.data.type === 'watch') {
      const { organizationId, workflowIds } = message.data;
      if (!hub.watch(socket, organizationId, workflowIds))
        hub.send(socket, { type: 'error', message: realtimeMessages.notSubscribed });
      return;
    }
    // A subscribe without a usable organization id is refused like any organization one may not follow.
    const isSubscribe =
      typeof json === 'object' && json !== null && 'type' in json && json.type === 'subscribe';
    hub.send(socket, {
      type: 'error',
      message: isSubscribe ? realtimeMessages.notMember : realtimeMessages.badMessage,
    });
  }

  return hub;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtimeHub: RealtimeHub;
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
