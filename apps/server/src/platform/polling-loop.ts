/**
 * Runs `poll` now and again `everyMs` after each run ends (never two at once), until stop(). The
 * scheduler and the email monitor of every worker use it; `poll` must not throw.
 */
export function createPollingLoop(poll: () => Promise<unknown>, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  const loop = () => {
    running = poll().finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(loop, everyMs);
    });
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    /** No run starts after this; resolves once the one in progress has ended. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
