// Restore's confirmation: says plainly what happens, and cannot be dismissed while the request runs.
import type { Workflow } from '@crewline/contracts';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';

import { restoreDescription } from './history-texts';

export function RestoreVersionDialog({
  version,
  status,
  pending,
  onCancel,
  onConfirm,
}: {
  /** The version to restore; null keeps the dialog closed. */
  version: number | null;
  status: Workflow['status'] | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (version: number) => void;
}) {
  // The closing animation still shows the number it was opened with.
  const [shown, setShown] = useState(version);
  if (version !== null && version !== shown) setShown(version);
  return (
    <ConfirmDialog
      title={`Restore version ${shown}?`}
      description={shown !== null ? restoreDescription(shown, status) : ''}
      open={version !== null}
      onOpenChange={(open) => !open && onCancel()}
      pending={pending}
      onConfirm={() => version !== null && onConfirm(version)}
      confirmLabel={`Restore version ${shown}`}
      pendingLabel="Restoring..."
    />
  );
}
