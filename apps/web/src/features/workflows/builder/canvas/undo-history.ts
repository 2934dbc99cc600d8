// Undo/redo as a bounded snapshot history: each step keeps the whole {nodes, edges, settings} from
// before a change. Consecutive keystrokes in one field share a coalesce key and make a single step.
import type { BuilderSnapshot } from '../workflow-save';

/** Steps kept; the oldest are dropped past this. */
export const HISTORY_LIMIT = 100;

export interface UndoHistory {
  past: BuilderSnapshot[];
  future: BuilderSnapshot[];
  /** The coalesce key of the last recorded step, so the next keystroke in the same field joins it. */
  lastKey: string | null;
}

export const EMPTY_HISTORY: UndoHistory = { past: [], future: [], lastKey: null };

/**
 * The history after recording `before` (the state before a change). A change with the same non-null
 * key as the previous one joins that step instead of adding another.
 */
export function record(
  history: UndoHistory,
  before: BuilderSnapshot,
  key: string | null = null,
  limit = HISTORY_LIMIT,
): UndoHistory {
  if (key !== null && key === history.lastKey && history.past.length > 0) {
    return { ...history, future: [] };
  }
  const past = [...history.past, before];
  return { past: past.length > limit ? past.slice(past.length - limit) : past, future: [], lastKey: key };
}

/** Steps back once: the snapshot to restore and the history after it, or null when there is none. */
export function undo(
  history: UndoHistory,
  current: BuilderSnapshot,
): { snapshot: BuilderSnapshot; history: UndoHistory } | null {
  const snapshot = history.past.at(-1);
  if (!snapshot) return null;
  return {
    snapshot,
    history: { past: history.past.slice(0, -1), future: [current, ...history.future], lastKey: null },
  };
}

/** Steps forward once after an undo. */
export function redo(
  history: UndoHistory,
  current: BuilderSnapshot,
): { snapshot: BuilderSnapshot; history: UndoHistory } | null {
  const [snapshot, ...future] = history.future;
  if (!snapshot) return null;
  return { snapshot, history: { past: [...history.past, current], future, lastKey: null } };
}
