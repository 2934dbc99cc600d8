import type { RealtimeEvent } from '@crewline/contracts';

type Listener = (event: RealtimeEvent) => void;

/**
 * The server's event bus. Services publish domain events here; the realtime hub delivers them to the
 * organization's websocket clients (and, across processes, Postgres LISTEN/NOTIFY will feed it).
 */
export function createEventBus() {
  const listeners = new Set<Listener>();
  return {
    publish(event: RealtimeEvent) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A failing subscriber must never break the request that published the event.
        }
      }
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
