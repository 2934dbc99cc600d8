// The History panel's words: what Restore does, which follows the server (docs/product-rules.md,
// Workflow versions): the version's definition becomes the saved workflow; an active workflow records
// that as a new version and runs it from then on; any other status records nothing until activated.
import type { Workflow, WorkflowVersionSummary } from '@crewline/contracts';

type WorkflowStatus = Workflow['status'];

export const NO_VERSIONS_TITLE = 'No versions yet';
export const NO_VERSIONS_DESCRIPTION =
  'Activating records version 1; after that, every save of the active workflow records the next one.';

/** Under the panel's title. */
export const HISTORY_DESCRIPTION =
  'Activate, and every save while the workflow is active, records a version. Versions are never changed or deleted.';

export const VERSION_NOTE_PLACEHOLDER = 'Version note (optional)';

/** Beside Save: when the note is kept (the server drops it when no version is recorded). */
export function versionNoteHint(status: WorkflowStatus | null): string {
  return status === 'active'
    ? 'Kept with the version this save records.'
    : 'Kept with the version Activate records.';
}

export function versionTitle(version: number): string {
  return `Version ${version}`;
}

export function versionAuthor(summary: Pick<WorkflowVersionSummary, 'createdBy'>): string {
  return summary.createdBy?.name || 'Unknown user';
}

/** 'a draft', 'paused': how the workflow stays after a restore that records no version. */
function statusWords(status: WorkflowStatus | null): string {
  if (!status || status === 'draft') return 'a draft';
  return status;
}

/** The confirmation's text: what happens to the saved workflow, the builder and the versions. */
export function restoreDescription(version: number, status: WorkflowStatus | null): string {
  const common = `The workflow's saved definition becomes version ${version} again, and the builder shows it: unsaved changes here are discarded.`;
  if (status === 'active')
    return `${common} The workflow is active, so new runs use it right away and it is recorded as a new version, "Restored from version ${version}". No version is changed or deleted.`;
  return `${common} The workflow stays ${statusWords(status)}, so no new version is recorded until you activate it. No version is changed or deleted.`;
}

export function restoredToast(version: number, name: string, status: WorkflowStatus | null) {
  return {
    title: `Version ${version} Restored`,
    description:
      status === 'active'
        ? `"${name}" runs version ${version}'s definition again, recorded as a new version.`
        : `"${name}" is back to version ${version}. Activate it to record a version.`,
  };
}

export const RESTORE_FAILED_TITLE = 'Restore Failed';
export const RESTORE_FAILED_DESCRIPTION = 'Failed to restore this version';
