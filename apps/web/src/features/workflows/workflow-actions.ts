// A workflow's lifecycle actions (docs/product-rules.md): which of Activate, Execute, Pause and Resume
// each status offers (on the card and in the builder), and the texts of activating, pausing, resuming
// and deleting.

/**
 * The card's main button, offered only where the server will do it: Execute for an active workflow
 * (the server runs no other), Resume for a paused one, Activate for the rest (draft, completed, failed).
 */
export function primaryAction(status: string | null | undefined): 'activate' | 'execute' | 'resume' {
  if (status === 'active') return 'execute';
  if (status === 'paused') return 'resume';
  return 'activate';
}

/** The card menu's Pause (active) or Resume (paused); the server allows no other way in or out of paused. */
export function pauseMenuAction(status: string | null | undefined): 'pause' | 'resume' | null {
  if (status === 'active') return 'pause';
  if (status === 'paused') return 'resume';
  return null;
}

export function deleteConfirmationText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone and will remove all associated executions.`;
}

export function activatedToast(name: string) {
  return { title: 'Workflow Activated', description: `"${name}" is now active and ready to execute` };
}

export function pausedToast(name: string) {
  return { title: 'Workflow Paused', description: `"${name}" is paused: its triggers will not start runs` };
}

export function resumedToast(name: string) {
  return { title: 'Workflow Resumed', description: `"${name}" is active again` };
}

export const PAUSE_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Pause Failed',
  description: 'Failed to pause workflow',
} as const;

export const ACTIVATION_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Activation Failed',
  description: 'Failed to activate workflow',
} as const;

export const DELETED_TOAST = {
  title: 'Workflow Deleted',
  description: 'Workflow has been deleted successfully',
} as const;

export const DELETE_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Error',
  description: 'Failed to delete workflow',
} as const;
