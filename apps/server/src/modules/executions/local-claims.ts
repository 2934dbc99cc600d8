import type { HandedWork } from '../../platform/notifications/claim-loops';
import type { StartClaim } from './run-start.repository';
import type { ClaimColumns } from './run-claims.repository';
import type { ClaimedRun } from './run-definitions';

/**
 * A claim loop of this process kept for one run (platform/notifications/claim-loops.ts, `reserve`):
 * `hand` gives it the work, `release` gives the loop back unused.
 */
type LoopReservation = { hand(work: HandedWork): void; release(): void };

/** What the worker role lends to local claims while it runs: its loops, and its runner's side of a claim. */
export type LocalWorker = {
  reserve(): LoopReservation | undefined;
  columns: ClaimColumns;
  leaseMs: number;
  /** Works a run this process claimed as it started (in the reserved loop). */
  run(run: ClaimedRun): Promise<void>;
  /** Hands a claimed run back unworked (the loops stopped first): another worker takes it. */
  release(run: ClaimedRun): Promise<void>;
};

/**
 * Runs claimed as they start (docs/decisions/0058-runs-claimed-as-they-start.md): in a process that
 * both starts runs and works them (ROLE=all, the default), a run started while one of its worker's
 * loops is idle is inserted already claimed for that loop, which works it at once: no claim
 * statement, no wake-up sent through the database. The insert decides under the same rules as a
 * claim (claim_on_start, migration 0048): nothing else waiting in the queue, and the organization
 * under its concurrency limit; otherwise the run is queued as always and the loop released.
 * The worker role attaches its loops while it runs (worker.ts); without them every run is queued.
 */
export function createLocalClaims() {
  let worker: LocalWorker | undefined;
  return {
    attach(local: LocalWorker) {
      worker = local;
    },
    detach() {
      worker = undefined;
    },
    /**
     * A claim for one start, while a loop is idle; its `settle` must be called once the start's
     * statement is back: it gives the loop back when the run was queued rather than claimed.
     */
    reserve(): (StartClaim & { settle(): void }) | undefined {
      const local = worker;
      const loop = local?.reserve();
      if (!local || !loop) return undefined;
      let handed = false;
      return {
        columns: local.columns,
        leaseMs: local.leaseMs,
        claimed(run) {
          handed = true;
          // The insert read the runner's claim columns, so the row is the runner's claimed run.
          const claimed = run as ClaimedRun;
          loop.hand({ run: () => local.run(claimed), abandon: () => local.release(claimed) });
        },
        settle() {
          if (!handed) loop.release();
        },
      };
    },
  };
}
export type LocalClaims = ReturnType<typeof createLocalClaims>;
