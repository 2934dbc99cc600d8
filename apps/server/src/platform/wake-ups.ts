/**
 * How a worker's claim loops sleep and are woken (the run worker, the knowledge worker). A wake-up
 * resumes a sleeping loop; one that finds none is kept as a hint, so a loop that is busy claiming or
 * working when it arrives looks once more instead of sleeping through it. Hints are used up, at most
 * one per loop: a loop that finishes its work with none left sleeps, rather than every busy loop
 * claiming again after every wake-up (all but one in vain).
 */
export function createWakeUps(loops: number) {
  let hints = 0;
  let stopped = false;
  const sleepers: (() => void)[] = [];
  const wake = (count: number) => {
    for (; count > 0 && sleepers.length > 0; count--) sleepers.shift()!();
    hints = Math.min(loops, hints + count);
  };
  return {
    /** One loop looks (something was queued). */
    wakeOne: () => wake(1),
    /** Every loop looks (wake-ups may have been missed). */
    wakeAll: () => wake(loops),
    /** A sleeping loop, if any, looks (more work is waiting, or the idle poll): never kept as a hint. */
    wakeIdle() {
      if (sleepers.length > 0) wake(1);
    },
    /** Resolves when this loop should look again: at once for a hint, or when woken or stopped. */
    idle: () =>
      new Promise<void>((resolve) => {
        if (stopped) return resolve();
        if (hints > 0) {
          hints--;
          return resolve();
        }
        sleepers.push(resolve);
      }),
    /** Every sleeping loop resumes, and idle() no longer sleeps. */
    stop() {
      stopped = true;
      for (const resume of sleepers.splice(0)) resume();
    },
  };
}
