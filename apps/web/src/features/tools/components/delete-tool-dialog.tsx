import type { Tool } from '@crewline/contracts';

import { DeleteWithUsageDialog } from '@/components/delete-with-usage-dialog';
import { toast } from '@/components/ui/use-toast';
import { queryKeys } from '@/lib/queries/keys';

import { useDeleteTool } from '../api/delete-tool';

/** Confirmation before DELETE /api/tools/:id, listing the agents connected to the tool (they lose it). */
export function DeleteToolDialog({
  tool,
  open,
  onClose,
}: {
  /** The tool to delete; it stays set while the dialog closes so the text does not flash. */
  tool: Tool | null;
  open: boolean;
  onClose: () => void;
}) {
  const deleteTool = useDeleteTool();

  const confirm = () => {
    if (!tool) return;
    deleteTool.mutate(tool.id, {
      onSuccess: () => {
        toast({ title: 'Tool deleted', description: `"${tool.name}" was removed.` });
        onClose();
      },
      onError: () => {
        toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete tool.' });
      },
    });
  };

  return (
    <DeleteWithUsageDialog
      thing="tool"
      usageKey={queryKeys.toolUsage(tool?.id ?? '')}
      title="Delete tool?"
      description={`Are you sure you want to delete "${tool?.name ?? ''}"? Agents connected to it will lose access. This action cannot be undone.`}
      open={open && !!tool}
      onOpenChange={(next) => !next && onClose()}
      pending={deleteTool.isPending}
      onConfirm={confirm}
    />
  );
}
