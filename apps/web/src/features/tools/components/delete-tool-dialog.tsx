import type { Tool } from '@crewline/contracts';

import { Spinner } from '@/components/spinner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

import { useDeleteTool } from '../api/delete-tool';

/** Confirmation before DELETE /api/tools/:id. Agents connected to the tool lose it. */
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
    <AlertDialog open={open && !!tool} onOpenChange={(open) => !open && !deleteTool.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete tool?</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete &quot;{tool?.name}&quot;? Agents connected to it will lose access.
            This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleteTool.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={deleteTool.isPending}
            aria-busy={deleteTool.isPending}
            onClick={confirm}
          >
            {deleteTool.isPending && <Spinner />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
