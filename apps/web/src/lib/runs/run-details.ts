// A run shown from its summary (a screen opened on a run already under way, as the builder does)
// knows its status only: a summary stores no steps' output, and the events that follow carry only
// the steps still to come (a waiting run holds no worker and sends none until it goes on). Its
// details (GET /api/executions/:id) are read once to mark the steps it already finished; events
// stay the authority (seedRun). Kept out of run-store.ts: the shell's screens never need it.
import { isRunActive } from '@crewline/contracts/vocabulary';
import type { QueryClient } from '@tanstack/react-query';

import { fetchExecution } from '@/lib/queries/executions';

import { seedRunRead } from './run-store';
import type { RunRead } from './run-state';

/** Runs whose details were read (or are being read) on this page: one read per run, never a poll. */
const detailsRead = new Set<string>();

/**
 * Reads the details of a run seeded from its summary once, if it is still in progress (pending,
 * running or waiting), and folds them into its state. A read that fails may be tried again.
 */
export function readRunDetailsOnce(queryClient: QueryClient, run: Pick<RunRead, 'id' | 'status'>): void {
  if (!isRunActive(run.status) || detailsRead.has(run.id)) return;
  detailsRead.add(run.id);
  fetchExecution(queryClient, run.id).then(seedRunRead, () => detailsRead.delete(run.id));
}
