import type { KnowledgeDocument } from '@crewline/contracts';

import { ConfirmDeleteDialog } from '@/components/confirm-dialog';

import { useDeleteDocument } from '../api/documents';

/** Confirmation before deleting one document and its chunks. */
export function DeleteDocumentDialog({
  knowledgeBaseId,
  document,
  open,
  onClose,
}: {
  knowledgeBaseId: string;
  document: KnowledgeDocument | null;
  open: boolean;
  onClose: () => void;
}) {
  const remove = useDeleteDocument(knowledgeBaseId);
  return (
    <ConfirmDeleteDialog
      title="Delete document?"
      description={`"${document?.name ?? ''}" and its chunks will be removed from this knowledge base; searches will no longer find it. This action cannot be undone.`}
      open={open && !!document}
      onOpenChange={(next) => !next && onClose()}
      pending={remove.isPending}
      onConfirm={() => document && remove.mutate(document, { onSuccess: onClose })}
    />
  );
}
