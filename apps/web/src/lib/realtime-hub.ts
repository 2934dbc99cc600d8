// The realtime events' fan-out to the screens and the connection status, without the connection
// itself (realtime-connection.ts, which reads messages with the contracts' zod schemas and so loads apart
// from the first page). One hub per <RealtimeProvider> (realtime.tsx).
import type { RealtimeEvent } from '@crewline/contracts';

export type RealtimeStatus = 'connecting' | 'open' | 'closed';

/** Whether a subscription to `types` wants this event. */
export function matchesEventTypes(
  types: readonly RealtimeEvent['type'][] | '*',
  event: RealtimeEvent,
): boolean {
  return types === '*' || types.includes(event.type);
}

type Listener<T> = (value: T) => void;

/**
 * Fans events out to the screens' subscriptions and holds the connection status for
 * `useSyncExternalStore`. One per provider.
 */
export interface RealtimeHub {
  emit(event: RealtimeEvent): void;
  subscribe(types: readonly RealtimeEvent['type'][] | '*', listener: Listener<RealtimeEvent>): () => void;
  getStatus(): RealtimeStatus;
  setStatus(status: RealtimeStatus): void;
  subscribeStatus(listener: () => void): () => void;
  /** Watches a workflow's runs live (its steps' answers streamed) until the returned function is called. */
  watch(workflowId: string): () => void;
  /** The workflows watched now, each once. */
  watching(): string[];
  subscribeWatching(listener: () => void): () => void;
}

export function createRealtimeHub(
  warn: (...args: unknown[]) => void = (...args) => console.warn(...args),
): RealtimeHub {
  const listeners = new Set<{
    types: readonly RealtimeEvent['type'][] | '*';
    listener: Listener<RealtimeEvent>;
  }>();
  const statusListeners = new Set<() => void>();
  let status: RealtimeStatus = 'closed';
  /** Watchers per workflow: several screens may watch the same one. */
  const watchers = new Map<string, number>();
  const watchListeners = new Set<() => void>();
  const watchChanged = () => {
    for (const listener of [...watchListeners]) listener();
  };
  return {
    emit(event) {
      for (const entry of [...listeners]) {
        if (!matchesEventTypes(entry.types, event)) continue;
        try {
          entry.listener(event);
        } catch (error) {
          warn('Realtime: an event handler failed', error);
        }
      }
    },
    subscribe(types, listener) {
      const entry = { types, listener };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    getStatus: () => status,
    setStatus(next) {
      if (next === status) return;
      status = next;
      for (const listener of [...statusListeners]) listener();
    },
    subscribeStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    watch(workflowId) {
      const count = watchers.get(workflowId) ?? 0;
      watchers.set(workflowId, count + 1);
      if (count === 0) watchChanged();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (watchers.get(workflowId) ?? 1) - 1;
        if (left > 0) watchers.set(workflowId, left);
        else {
          watchers.delete(workflowId);
          watchChanged();
        }
      };
    },
    watching: () => [...watchers.keys()],
    subscribeWatching(listener) {
      watchListeners.add(listener);
      return () => {
        watchListeners.delete(listener);
      };
    },
  };
}
