import type { ComponentProps } from 'react';

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

type ConfirmDialogProps = {
  title: string;
  description: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: () => void;
};

/** A confirmation that stays open, and cannot be dismissed, while the request it confirms runs. */
export function ConfirmDialog({
  title,
  description,
  open,
  onOpenChange,
  pending,
  onConfirm,
  confirmLabel,
  pendingLabel,
  variant,
}: ConfirmDialogProps & {
  confirmLabel: string;
  pendingLabel: string;
  variant?: ComponentProps<typeof Button>['variant'];
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription className="break-words">{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button type="button" variant={variant} onClick={onConfirm} disabled={pending} aria-busy={pending}>
            {pending && <Spinner />}
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The delete confirmation of agents, tools and workflows. */
export function ConfirmDeleteDialog(props: ConfirmDialogProps) {
  return <ConfirmDialog {...props} confirmLabel="Delete" pendingLabel="Deleting..." variant="destructive" />;
}
