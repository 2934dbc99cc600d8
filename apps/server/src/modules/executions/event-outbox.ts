import type { RealtimeEvent } from '@crewline/contracts';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';

/** How long a started event (the run's, a step's) may wait to travel with the run's next statement. */
export const STARTED_EVENT_WAIT_MS = 50;

/**
 * An attempt's way out to the event bus (the runner's only one): events go out now (`publish`),
 * after a short wait (`soon`: the run, or a step, started), or inside the run's next statement
 * (`withStatement`: a notification in its RETURNING, sent at commit only if a row changed). Waiting
 * events travel in that statement's notification, in order before its own event, or on their own
 * after `waitMs`, so a step that takes its time still shows as started at once.
 */
export function createEventOutbox(events: EventBus, waitMs = STARTED_EVENT_WAIT_MS) {
  let waiting: RealtimeEvent[] = [];
  let waitTimer: NodeJS.Timeout | undefined;

  /**
   * What the outbox sends on its own, one after another: a send waits for the one before, and a
   * statement's notification for all of them, so no event overtakes one that happened before it
   * (a delegate's completed step before the started steps a slow timer flush was still sending).
   */
  let sending: Promise<void> = Promise.resolve();
  /** Never rejects: a lost event must not fail the run (clients refetch on the next one). */
  const send = (event: RealtimeEvent) => Promise.resolve(events.publish(event)).catch(() => undefined);
  const inOrder = (work: () => Promise<void>) => (sending = sending.then(work));
  const publish = (event: RealtimeEvent) => inOrder(() => send(event));
  const takeWaiting = () => {
    clearTimeout(waitTimer);
    waitTimer = undefined;
    const taken = waiting;
    waiting = [];
    return taken;
  };
  /** The waiting events, published now. */
  const flush = () => {
    const taken = takeWaiting();
    return inOrder(async () => {
      for (const event of taken) await send(event);
    });
  };

  return {
    publish,
    flush,
    /** `event` waits for the run's next statement, at most `waitMs`. */
    soon(event: RealtimeEvent) {
      waiting.push(event);
      waitTimer ??= setTimeout(() => void flush(), waitMs);
    },
    /**
     * `event`, after the waiting ones, as the notification of the statement that makes it true
     * (`notify`, for its RETURNING: sent if it changes a row, on every bus, so nothing follows it).
     */
    async withStatement(event: RealtimeEvent | RealtimeEvent[]) {
      await sending;
      return { notify: events.statementNotification([...takeWaiting(), ...[event].flat()]) };
    },
    /** The attempt is over: nothing waits any longer (what waited was flushed or went with a statement). */
    close() {
      clearTimeout(waitTimer);
      waitTimer = undefined;
    },
  };
}
export type EventOutbox = ReturnType<typeof createEventOutbox>;

/** Cancel is a row update made by any API process; its run control reaches the runner over the bus. */
export function onRunCancelled(events: EventBus, cancelled: (executionId: string) => void): () => void {
  return events.listen(channels.runs, {
    onNotify: (control) => {
      if (control.type === 'cancelled') cancelled(control.executionId);
    },
  });
}
