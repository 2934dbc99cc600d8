import type { KnowledgeDocument } from '@crewline/contracts';
import { LoaderCircle } from 'lucide-react';

import { StatusBadge } from '@/components/status-badge';

import { documentStatusTone, isDocumentPending } from '../knowledge-display';

/** queued gray, processing blue, ready green, failed red; a spinner while it is still being ingested. */
export function DocumentStatusBadge({ status }: Pick<KnowledgeDocument, 'status'>) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <StatusBadge label={status} tone={documentStatusTone(status)} />
      {isDocumentPending(status) && (
        <LoaderCircle className="size-3.5 animate-spin text-muted-foreground" aria-hidden="true" />
      )}
    </span>
  );
}
