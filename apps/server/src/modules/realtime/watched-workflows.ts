import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';

/**
 * Which workflows someone is watching live, as every process hears it (EventBus.publishWatching): the
 * runner streams a step's answer only then, as a streamed model call costs the worker a few
 * milliseconds of CPU for every hundred tokens, which nobody would see otherwise.
 *
 * The process holding the sockets announces their workflows when one is first watched and again
 * every WATCH_ANNOUNCE_MS (realtime.hub.ts); an announcement holds for WATCH_TTL_MS, so a closed
 * builder stops its workflow's streaming within that time, and a lost announcement (the bus
 * reconnecting) is made good by the next.
 */
export const WATCH_ANNOUNCE_MS = 10_000;
export const WATCH_TTL_MS = 30_000;
/** Past this many keys heard, the expired ones are swept on the next announcement. */
const SWEEP_ABOVE = 10_000;

export const watchKey = (organizationId: string, workflowId: string) => `${organizationId}/${workflowId}`;

export function createWatchedWorkflows(events: EventBus, now: () => number = Date.now) {
  const until = new Map<string, number>();
  const unsubscribe = events.listen(channels.watch, {
    onNotify(keys) {
      const at = now();
      if (until.size > SWEEP_ABOVE) for (const [key, end] of until) if (end <= at) until.delete(key);
      for (const key of keys) until.set(key, at + WATCH_TTL_MS);
    },
  });
  return {
    /** Whether someone watched the workflow's runs within the last WATCH_TTL_MS. */
    isWatched(organizationId: string, workflowId: string): boolean {
      const end = until.get(watchKey(organizationId, workflowId));
      return end !== undefined && end > now();
    },
    close: unsubscribe,
  };
}
