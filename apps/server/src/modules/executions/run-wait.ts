import { isRunEnded, type Execution, type RealtimeEvent } from '@crewline/contracts';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';

/** The events that say a run ended (each leaves from the statement that ended it, in its transaction). */
const endedEvents = new Set<RealtimeEvent['type']>([
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
]);

/**
 * How often the run is read again while nothing is heard: the ended event is the usual wake-up, this
 * only covers a notification lost while the bus reconnected.
 */
const RUN_POLL_MS = 5_000;

/**
 * Waits for a run to end, up to `timeoutMs`: the run as it ended, or undefined when it was still
 * going (or the caller went away, `signal`). Works whatever process runs it: the ended event
 * travels the Postgres event bus between processes, and a read of the run decides; nothing is kept
 * between requests.
 */
export function waitForRunEnd(deps: {
  events: Pick<EventBus, 'listen'>;
  read: () => Promise<Execution>;
  runId: string;
  timeoutMs: number;
  signal?: AbortSignal;
  pollMs?: number;
  /** Each of the run's events as it is heard (a chat streams its reply from the step deltas). */
  onEvent?: (event: RealtimeEvent) => void;
}): Promise<Execution | undefined> {
  const { runId } = deps;
  return new Promise((resolve, reject) => {
    let settled = false;
    let reading = false;
    let again = false;
    const finish = (run: Execution | undefined, error?: unknown) => {
      if (settled) return;
      settled = true;
      unlisten();
      clearInterval(poll);
      clearTimeout(timer);
      deps.signal?.removeEventListener('abort', aborted);
      if (error !== undefined) reject(error);
      else resolve(run);
    };
    /** One read at a time; a wake-up during one reads once more after it. */
    const check = async () => {
      if (settled) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const run = await deps.read();
          if (isRunEnded(run.status)) return finish(run);
        } while (again && !settled);
      } catch (error) {
        finish(undefined, error);
      } finally {
        reading = false;
      }
    };
    const unlisten = deps.events.listen(channels.events, {
      onNotify(events) {
        let ended = false;
        for (const e of events) {
          if (!('executionId' in e) || e.executionId !== runId || settled) continue;
          deps.onEvent?.(e);
          if (endedEvents.has(e.type)) ended = true;
        }
        if (ended) void check();
      },
      onMissed: () => void check(),
    });
    const poll = setInterval(() => void check(), deps.pollMs ?? RUN_POLL_MS);
    const timer = setTimeout(() => finish(undefined), deps.timeoutMs);
    const aborted = () => finish(undefined);
    deps.signal?.addEventListener('abort', aborted);
    if (deps.signal?.aborted) return finish(undefined);
    // It may have ended before the listener was there.
    void check();
  });
}
