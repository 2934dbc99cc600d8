import type { KnowledgeDocument } from '@crewline/contracts';
import { CircleAlert, FileText, Trash2 } from 'lucide-react';

import { IconButton } from '@/components/icon-button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatRelativeTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { countLabel, mediaTypeLabel } from '../knowledge-display';
import { formatBytes } from '../knowledge-files';
import { DocumentStatusBadge } from './document-status-badge';

/**
 * The documents of a knowledge base, newest first: name, type, size, status (a failed one says why),
 * chunks and Delete. On a phone the type, size and chunks fold under the name.
 */
export function DocumentsList({
  documents,
  onDelete,
}: {
  documents: readonly KnowledgeDocument[];
  onDelete: (document: KnowledgeDocument) => void;
}) {
  return (
    <div className="overflow-hidden rounded-xl border bg-card">
      <table className="w-full text-sm">
        <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
          <tr>
            {/* The name takes the width the other columns leave. */}
            <th scope="col" className="w-full px-4 py-2.5 font-medium">
              Name
            </th>
            <th scope="col" className="hidden px-4 py-2.5 font-medium whitespace-nowrap md:table-cell">
              Type
            </th>
            <th
              scope="col"
              className="hidden px-4 py-2.5 text-right font-medium whitespace-nowrap md:table-cell"
            >
              Size
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium whitespace-nowrap">
              Status
            </th>
            <th scope="col" className="hidden px-4 py-2.5 text-right font-medium sm:table-cell">
              Chunks
            </th>
            <th scope="col" className="w-12 px-2 py-2.5">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {documents.map((document) => (
            <tr key={document.id} data-testid="knowledge-document" className="align-top hover:bg-muted/30">
              <td className="max-w-0 px-4 py-3">
                <div className="flex min-w-0 items-start gap-2.5">
                  <FileText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0">
                    <p className="truncate font-medium" title={document.name}>
                      {document.name}
                    </p>
                    <p className="truncate text-xs text-muted-foreground">
                      <span className="md:hidden">
                        {mediaTypeLabel(document.mediaType)} · {formatBytes(document.sizeBytes)} ·{' '}
                      </span>
                      <span className="sm:hidden">{countLabel(document.chunkCount, 'chunk')} · </span>
                      Added {formatRelativeTime(document.createdAt)}
                    </p>
                    {/* On a phone the reason reads under the name, where the row is wide enough for it. */}
                    {document.status === 'failed' && document.error && (
                      <FailureReason error={document.error} className="mt-1.5 sm:hidden" />
                    )}
                  </div>
                </div>
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap md:table-cell">
                {mediaTypeLabel(document.mediaType)}
              </td>
              <td className="hidden px-4 py-3 text-right whitespace-nowrap tabular-nums md:table-cell">
                {formatBytes(document.sizeBytes)}
              </td>
              <td className="px-4 py-3 whitespace-nowrap">
                <DocumentStatusBadge status={document.status} />
                {document.status === 'failed' && document.error && (
                  <FailureReason error={document.error} className="mt-1.5 hidden w-56 sm:flex" />
                )}
              </td>
              <td className="hidden px-4 py-3 text-right tabular-nums sm:table-cell">
                {document.status === 'ready' ? document.chunkCount.toLocaleString() : '—'}
              </td>
              <td className="px-2 py-2">
                <IconButton
                  icon={<Trash2 aria-hidden="true" />}
                  tooltip="Delete"
                  label={`Delete ${document.name}`}
                  onClick={() => onDelete(document)}
                  destructive
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Why a document failed, in the destructive colour with an alert icon. */
function FailureReason({ error, className }: { error: string; className: string }) {
  return (
    <p className={cn('flex items-start gap-1 text-xs whitespace-normal text-destructive', className)}>
      <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span className="wrap-anywhere">{error}</span>
    </p>
  );
}

export function DocumentsListSkeleton() {
  return (
    <div
      className="space-y-px overflow-hidden rounded-xl border"
      aria-busy="true"
      aria-label="Loading documents"
    >
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-4 py-3.5">
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-5 w-16 rounded-full" />
          <Skeleton className="hidden h-4 w-10 sm:block" />
        </div>
      ))}
    </div>
  );
}
