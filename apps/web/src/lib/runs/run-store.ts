// The runs' states, one per execution (run-state.ts), kept while the page is open and read with
// useRun(id). Fed by the realtime events (useRunFeed, mounted by every screen that shows runs: the
// executions tab, the builder, the run details) and by runs read from the server (seedRunRead).
import type { RealtimeEvent } from '@crewline/contracts';
import { useEffect } from 'react';
import { create } from 'zustand';

import { useRealtimeEvent } from '@/lib/realtime';

import { emptyRun, reduceRun, RUN_EVENTS, seedRun, type RunRead, type RunState } from './run-state';

/** Runs remembered at most; the one changed longest ago is forgotten first. */
export const REMEMBERED_RUNS = 100;

interface RunStore {
  runs: Readonly<Record<string, RunState>>;
}

export const useRunStore = create<RunStore>()(() => ({ runs: {} }));

/** The runs with `next` stored last (the most recently changed), the oldest beyond the limit dropped. */
function keep(runs: Readonly<Record<string, RunState>>, next: RunState): Record<string, RunState> {
  const { [next.executionId]: _was, ...others } = runs;
  const kept = Object.entries(others).slice(-(REMEMBERED_RUNS - 1));
  return { ...Object.fromEntries(kept), [next.executionId]: next };
}

// Several screens feed the store at once: each event is folded once (the hub hands every listener
// the same object).
const applied = new WeakSet<RealtimeEvent>();

/** Folds one realtime event into its run's state. */
export function applyRunEvent(event: RealtimeEvent): void {
  if (!('executionId' in event) || applied.has(event)) return;
  applied.add(event);
  const runs = useRunStore.getState().runs;
  const was = runs[event.executionId] ?? emptyRun(event.executionId, event.workflowId);
  const next = reduceRun(was, event);
  if (next !== runs[event.executionId]) useRunStore.setState({ runs: keep(runs, next) });
}

/** Folds a run read from the server into its state (see seedRun). */
export function seedRunRead(read: RunRead): void {
  const runs = useRunStore.getState().runs;
  const was = runs[read.id] ?? emptyRun(read.id, read.workflowId);
  const next = seedRun(was, read);
  if (next !== runs[read.id]) useRunStore.setState({ runs: keep(runs, next) });
}

const runEvents = [...RUN_EVENTS];

/** Folds the organization's run events into the store while the caller is mounted. */
export function useRunFeed(): void {
  useRealtimeEvent(runEvents, applyRunEvent);
}

/**
 * The state of run `id` (undefined while nothing was heard or read of it; null follows nothing),
 * kept current by its events. `read` (the run read from the server) is folded in when it changes.
 */
export function useRun(id: string | null, read?: RunRead): RunState | undefined {
  useRunFeed();
  useEffect(() => {
    if (read && read.id === id) seedRunRead(read);
  }, [id, read]);
  return useRunStore((s) => (id ? s.runs[id] : undefined));
}
