// The upload panel's list: one row per file the user picked or dropped, from its check in the browser
// through reading and sending to done or failed. Pure, so the page's hook only dispatches.
import type { KnowledgeMediaType } from '@crewline/contracts';

import { checkFile } from './knowledge-files';

type UploadPhase = 'rejected' | 'waiting' | 'reading' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: string;
  name: string;
  sizeBytes: number;
  /** Null for a file refused for its type. */
  mediaType: KnowledgeMediaType | null;
  phase: UploadPhase;
  /** Share of the request body sent, 0–1 (1 once the server answered). */
  progress: number;
  /** Why it was refused or failed. */
  error: string | null;
}

export type UploadAction =
  | { type: 'added'; items: UploadItem[] }
  | { type: 'reading'; id: string }
  | { type: 'uploading'; id: string }
  | { type: 'progress'; id: string; loaded: number; total: number }
  | { type: 'succeeded'; id: string }
  | { type: 'failed'; id: string; error: string }
  | { type: 'dismissed'; id: string }
  | { type: 'clearedFinished' };

/** Rows for new files: the ones that pass the checks wait their turn, the others show why not. */
export function plannedUploads(
  files: readonly { name: string; size: number; type?: string }[],
  newId: () => string,
): UploadItem[] {
  return files.map((file) => {
    const check = checkFile(file);
    return {
      id: newId(),
      name: file.name,
      sizeBytes: file.size,
      mediaType: check.ok ? check.mediaType : null,
      phase: check.ok ? 'waiting' : 'rejected',
      progress: 0,
      error: check.ok ? null : check.reason,
    };
  });
}

function update(items: UploadItem[], id: string, patch: (item: UploadItem) => Partial<UploadItem>) {
  let changed = false;
  const next = items.map((item) => {
    if (item.id !== id) return item;
    const changes = patch(item);
    if (Object.keys(changes).length === 0) return item;
    changed = true;
    return { ...item, ...changes };
  });
  // Nothing changed: the same list, so React skips the render.
  return changed ? next : items;
}

/** A row that has ended no longer moves: late progress from a finished request is ignored. */
const ended = (item: UploadItem) =>
  item.phase === 'done' || item.phase === 'failed' || item.phase === 'rejected';

export function uploadsReducer(items: UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'added':
      // Newest picks on top, as the documents list below is newest first.
      return [...action.items, ...items];
    case 'reading':
      return update(items, action.id, (item) => (ended(item) ? {} : { phase: 'reading' }));
    case 'uploading':
      return update(items, action.id, (item) => (ended(item) ? {} : { phase: 'uploading', progress: 0 }));
    case 'progress':
      return update(items, action.id, (item) =>
        item.phase !== 'uploading' || action.total <= 0
          ? {}
          : // Never backwards; the last few per cent wait for the server's answer.
            { progress: Math.max(item.progress, Math.min(0.99, action.loaded / action.total)) },
      );
    case 'succeeded':
      return update(items, action.id, () => ({ phase: 'done', progress: 1, error: null }));
    case 'failed':
      return update(items, action.id, () => ({ phase: 'failed', error: action.error }));
    case 'dismissed':
      return items.filter((item) => item.id !== action.id);
    case 'clearedFinished':
      return items.filter((item) => !ended(item));
  }
}

export interface UploadSummary {
  /** Waiting, reading or sending. */
  active: number;
  done: number;
  /** Refused in the browser or by the server. */
  failed: number;
}

export function summarizeUploads(items: readonly UploadItem[]): UploadSummary {
  const summary: UploadSummary = { active: 0, done: 0, failed: 0 };
  for (const item of items) {
    if (item.phase === 'done') summary.done += 1;
    else if (item.phase === 'failed' || item.phase === 'rejected') summary.failed += 1;
    else summary.active += 1;
  }
  return summary;
}

/** The row's words under its name: 'Waiting…', 'Uploading 42%', 'Uploaded', or the reason. */
export function uploadStatusText(item: UploadItem): string {
  switch (item.phase) {
    case 'waiting':
      return 'Waiting…';
    case 'reading':
      return 'Reading file…';
    case 'uploading':
      return `Uploading ${Math.round(item.progress * 100)}%`;
    case 'done':
      return 'Uploaded';
    default:
      return item.error ?? 'Upload failed';
  }
}

/**
 * Runs `task` for every item with at most `limit` at a time, in order; a task's failure is its own
 * (the task reports it) and never stops the others.
 */
export async function runWithConcurrency<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch {
        // reported by the task
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
