import type { ExecutionLog } from '@crewline/contracts';

/** One line of a run's log, stamped now; `nodeId` names the step it is about. */
export const logLine = (level: ExecutionLog['level'], message: string, nodeId?: string): ExecutionLog => ({
  at: new Date().toISOString(),
  level,
  message,
  ...(nodeId ? { nodeId } : {}),
});

/**
 * An attempt's log lines and which of them are stored. A step's statement stores the lines not
 * stored yet with it (`claim`), so a crash loses none before it; the rest are stored when the run
 * ends (`unstored`). A step's own lines (`ofStep`) are also stored on its row.
 */
export function createRunLog() {
  const lines: ExecutionLog[] = [];
  const stored = new WeakSet<ExecutionLog>();
  const unstored = () => lines.filter((line) => !stored.has(line));

  return {
    add(level: ExecutionLog['level'], message: string, nodeId?: string) {
      lines.push(logLine(level, message, nodeId));
    },
    unstored,
    ofStep: (nodeId: string) => lines.filter((line) => line.nodeId === nodeId),
    has: (level: ExecutionLog['level'], message: string) =>
      lines.some((line) => line.level === level && line.message === message),
    /**
     * The lines not stored yet, marked stored before the statement that stores them runs, so a
     * parallel step storing at the same time does not repeat them; `release` if that statement failed.
     */
    claim() {
      const claimed = unstored();
      for (const line of claimed) stored.add(line);
      return {
        lines: claimed,
        release() {
          for (const line of claimed) stored.delete(line);
        },
      };
    },
  };
}
export type RunLog = ReturnType<typeof createRunLog>;
