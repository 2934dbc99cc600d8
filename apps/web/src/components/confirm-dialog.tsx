import type { ComponentProps, ReactNode } from 'react';

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
  /** Shown between the description and the buttons (what a delete affects, for one). */
  children?: ReactNode;
  /** Keeps the confirm button off (while what it would affect is still being read). */
  confirmDisabled?: boolean;
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
  children,
  confirmDisabled = false,
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
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button
            type="button"
            variant={variant}
            onClick={onConfirm}
            disabled={pending || confirmDisabled}
            aria-busy={pending}
          >
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
