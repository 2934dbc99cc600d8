import type { KnowledgeBase } from '@crewline/contracts';

import { DeleteWithUsageDialog } from '@/components/delete-with-usage-dialog';
import { queryKeys } from '@/lib/queries/keys';

import { useDeleteKnowledgeBase } from '../api/knowledge-bases';
import { countLabel } from '../knowledge-display';

/** Confirmation before deleting a knowledge base with all its documents and chunks, listing what searches it. */
export function DeleteKnowledgeBaseDialog({
  base,
  open,
  onClose,
  onDeleted,
}: {
  /** Stays set while the dialog closes so its text does not flash. */
  base: Pick<KnowledgeBase, 'id' | 'name' | 'documentCount'> | null;
  open: boolean;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteKnowledgeBase();
  const confirm = () => {
    if (!base) return;
    remove.mutate(
      { id: base.id, name: base.name },
      {
        onSuccess: () => {
          onClose();
          onDeleted?.();
        },
      },
    );
  };
  return (
    <DeleteWithUsageDialog
      thing="knowledge base"
      usageKey={queryKeys.knowledgeBases.usage(base?.id ?? '')}
      title="Delete knowledge base?"
      description={`"${base?.name ?? ''}" and its ${countLabel(base?.documentCount ?? 0, 'document')} will be deleted, with every chunk made from them. Agents searching it will find nothing. This action cannot be undone.`}
      open={open && !!base}
      onOpenChange={(next) => !next && onClose()}
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
