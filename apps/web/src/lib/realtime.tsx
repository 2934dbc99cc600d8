// Live updates for the signed-in app (docs/product-rules.md). One websocket per signed-in
// session, opened by <RealtimeProvider> in the app shell and closed on logout or unmount. Every
// event refreshes the cached data it concerns (lib/realtime-invalidation.ts); screens that need more
// (the builder's node progress) subscribe with useRealtimeEvent.
//
//   useRealtimeEvent(['workflow_execution_completed'], (event) => …);   // or '*' for every event
//   const status = useRealtimeStatus();                                  // 'connecting' | 'open' | 'closed'
//   useWatchWorkflow(workflowId);        // its running steps' answers stream while mounted
import type { RealtimeEvent, RealtimeEventType } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

import { queryKeys } from './queries/keys';
import { createRealtimeHub, type RealtimeHub, type RealtimeStatus } from './realtime-hub';
import type { RealtimeConnection } from './realtime-connection';
import { useAuth, useAuthToken } from './session';

export type { RealtimeStatus };

const RealtimeContext = createContext<RealtimeHub | null>(null);
/** A hub of one's own (component tests emit events through it). */
export const RealtimeHubContext = RealtimeContext;

/** Opens the organization's live connection while a user is signed in; closes it on logout/unmount. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const token = useAuthToken();
  const { isAuthenticated, organization } = useAuth();
  const organizationId = organization?.id ?? null;
  const queryClient = useQueryClient();
  const [hub] = useState(() => createRealtimeHub());

  useEffect(() => {
    if (!token || !isAuthenticated || !organizationId) return;
    // The connection and the cache refreshes read events with the contracts' schemas (zod): they load
    // in a chunk of their own, so the first page does not wait for them. Connecting meanwhile.
    let connection: RealtimeConnection | null = null;
    let stopWatching: (() => void) | null = null;
    let ended = false;
    hub.setStatus('connecting');
    Promise.all([import('./realtime-connection'), import('./realtime-invalidation')]).then(
      ([{ RealtimeConnection, realtimeUrl }, { invalidateForRealtimeEvent }]) => {
        if (ended) return;
        connection = new RealtimeConnection({
          url: realtimeUrl(window.location, token),
          organizationId,
          onEvent: (event) => {
            if (event.organizationId !== organizationId) return;
            invalidateForRealtimeEvent(queryClient, event);
            hub.emit(event);
          },
          onStatus: (status) => hub.setStatus(status),
          // The token was revoked or expired: re-check the session, which signs the user out if so.
          onUnauthorized: () => void queryClient.invalidateQueries({ queryKey: queryKeys.session }),
        });
        connection.setWatching(hub.watching());
        const live = connection;
        stopWatching = hub.subscribeWatching(() => live.setWatching(hub.watching()));
        connection.start();
      },
      (error: unknown) => {
        if (ended) return;
        console.warn('Realtime: could not load the connection', error);
        hub.setStatus('closed');
      },
    );
    return () => {
      ended = true;
      stopWatching?.();
      if (connection) connection.close();
      else hub.setStatus('closed');
    };
  }, [hub, queryClient, token, isAuthenticated, organizationId]);

  return <RealtimeContext value={hub}>{children}</RealtimeContext>;
}

/**
 * Calls `handler` for every event of these types (or '*' for all) while the caller is mounted. The
 * latest handler is always used without resubscribing; a new array with the same types is no change.
 * Outside a RealtimeProvider it does nothing.
 */
export function useRealtimeEvent(
  types: RealtimeEventType[] | '*',
  handler: (event: RealtimeEvent) => void,
): void {
  const hub = useContext(RealtimeContext);
  const handlerRef = useRef(handler);
  useLayoutEffect(() => {
    handlerRef.current = handler;
  });
  const typesKey = types === '*' ? '*' : [...new Set(types)].sort().join(',');

  useEffect(() => {
    if (!hub) return;
    const wanted = typesKey === '*' ? '*' : (typesKey.split(',').filter(Boolean) as RealtimeEventType[]);
    return hub.subscribe(wanted, (event) => handlerRef.current(event));
  }, [hub, typesKey]);
}

const noSubscription = () => () => {};
const closed = (): RealtimeStatus => 'closed';

/** The live connection's state: 'open' while events arrive, 'connecting' while (re)trying, else 'closed'. */
export function useRealtimeStatus(): RealtimeStatus {
  const hub = useContext(RealtimeContext);
  return useSyncExternalStore(
    hub ? hub.subscribeStatus : noSubscription,
    hub ? hub.getStatus : closed,
    closed,
  );
}

/**
 * Watches a workflow's runs live while the caller is mounted (null watches nothing): its running
 * steps' answers then stream over the connection (execution_node_delta). Builders and run details use it.
 */
export function useWatchWorkflow(workflowId: string | null): void {
  const hub = useContext(RealtimeContext);
  useEffect(() => {
    if (!hub || !workflowId) return;
    return hub.watch(workflowId);
  }, [hub, workflowId]);
}
