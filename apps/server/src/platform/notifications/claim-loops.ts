import type { EventBus } from '../events';
import { createWakeUps } from '../wake-ups';
import type { Channel } from './channels';

export type ClaimLoopsOptions<Payload> = {
  /**
   * The channel that says there is work (a run queued, a document handed back): each notification
   * `wakes` accepts (all by default) wakes one idle loop, and after a reconnect every loop looks.
   * Without a bus the loops only poll.
   */
  channel?: { bus: Pick<EventBus, 'listen'>; channel: Channel<Payload>; wakes?(payload: Payload): boolean };
  /**
   * Claims one item and works on it; `more` when its claim saw another waiting. `signal` aborts when
   * the loops stop (work that can be handed back mid-way stops then).
   */
  claimNext(signal: AbortSignal): Promise<{ more: boolean } | undefined>;
  /** Items this process works on at once (one loop each). */
  concurrency: number;
  /** How often an idle process looks when nothing woke it (items whose worker died, missed wake-ups). */
  pollMs: number;
  /** On stop, after the last claim: lets work in progress finish or hands it back. */
  drain?(): Promise<void>;
  /** Logged when a claim or its work throws (the loop goes on). */
  onError?(err: unknown): void;
  /**
   * Past `steady` items at once, another is claimed only while the process is not `busy`: on a busy
   * process more items at once only take turns on the same core, and the requests that bring work
   * (an execute, a webhook) wait behind them. The items wait in their queue instead, at no cost.
   */
  load?: { busy(): boolean; steady: number };
};

/** Work handed to a loop rather than claimed by it (`reserve`); `abandon` if the loops stop first. */
export type HandedWork = { run(signal: AbortSignal): Promise<void>; abandon(): Promise<void> };

/** How often a loop held back by a busy process looks again. */
const BUSY_RECHECK_MS = 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claim loops (docs/decisions/0035-one-notification-layer.md): `concurrency` loops each claim an item
 * and work on it. A loop that finished an item claims again at once when its claim said another was
 * waiting, waking an idle loop to join (a backlog drains with every loop at work), and otherwise
 * sleeps until a notification, the poll, or the hint a busy loop left (wake-ups.ts): at light load an
 * item costs no empty claim. Idle, the process looks once per `pollMs` (one loop). Every claim is
 * caught, so a database outage never ends a loop. The run worker and the knowledge worker are these.
 */
export function startClaimLoops<Payload>(options: ClaimLoopsOptions<Payload>) {
  const concurrency = Math.max(1, options.concurrency);
  let stopping = false;
  const halt = new AbortController();
  const wakeUps = createWakeUps(concurrency);
  const { load } = options;
  /** Loops claiming or working on an item. */
  let working = 0;
  /** Loops asleep, and how many of them are reserved for work about to be handed over. */
  let sleeping = 0;
  let reserved = 0;
  /** Work handed over and not yet taken by a loop: taken before any claim. */
  const handed: HandedWork[] = [];

  async function loop() {
    while (!stopping) {
      const work = handed.shift();
      if (!work) {
        while (load && !stopping && working >= load.steady && load.busy()) await pause(BUSY_RECHECK_MS);
        if (stopping) break;
      }
      let claimed: { more: boolean } | undefined;
      working++;
      try {
        if (work) await work.run(halt.signal);
        else claimed = await options.claimNext(halt.signal);
      } catch (err) {
        // The item keeps its state; once its lease lapses, the next claim takes it again.
        options.onError?.(err);
      } finally {
        working--;
      }
      if (claimed?.more) {
        wakeUps.wakeIdle();
        continue;
      }
      if (handed.length > 0) continue;
      sleeping++;
      await wakeUps.idle();
      sleeping--;
    }
  }

  const loops = Array.from({ length: concurrency }, () => loop());
  const listening = options.channel;
  const unsubscribe = listening?.bus.listen(listening.channel, {
    onNotify(payload) {
      if (!listening.wakes || listening.wakes(payload)) wakeUps.wakeOne();
    },
    onMissed: wakeUps.wakeAll,
  });
  // One look per interval for the whole process, only while some loop is idle.
  const poll = setInterval(wakeUps.wakeIdle, options.pollMs);

  return {
    /** Wakes every idle loop to look now. */
    wake: wakeUps.wakeAll,
    /**
     * Keeps a sleeping loop for work about to come (a run claimed as it starts), busy process or
     * not: the work came with a request this process already serves, and taking it here costs less
     * than queueing it for a claim (`load` holds back claims from the queue, not this). `hand` gives
     * it the work (it runs before any claim), `release` gives the loop back. Undefined when no loop
     * sleeps: then the work waits in the queue.
     */
    reserve(): { hand(work: HandedWork): void; release(): void } | undefined {
      if (stopping || sleeping - reserved <= 0) return undefined;
      reserved++;
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        reserved--;
        return true;
      };
      return {
        hand(work) {
          if (!settle()) return;
          if (stopping) {
            void work.abandon().catch((err: unknown) => options.onError?.(err));
            return;
          }
          handed.push(work);
          wakeUps.wakeOne();
        },
        release: settle,
      };
    },
    /** No claim starts after this; resolves once `drain` and every loop have ended. */
    async stop() {
      stopping = true;
      halt.abort();
      clearInterval(poll);
      unsubscribe?.();
      wakeUps.stop();
      // Work handed over but not begun goes back to the queue for another worker.
      const abandoned = handed
        .splice(0)
        .map((work) => work.abandon().catch((err: unknown) => options.onError?.(err)));
      await options.drain?.();
      await Promise.all([...loops, ...abandoned]);
    },
  };
}
