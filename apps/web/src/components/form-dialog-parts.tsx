// The parts the forms share: the banner for an error that belongs to no field (auth forms and dialogs),
// the frame of a dialog that holds a form, and the Cancel / submit row of a form in a dialog, whose
// submit shows the request running.
import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';

import { Spinner } from '@/components/spinner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/** An error the server gave for the whole form; nothing when there is none. */
export function FormBanner({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}

/**
 * A dialog with a title and a description over its form. The form is mounted only while the dialog is
 * open, so each opening starts from fresh values and no error of the last one.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  className,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** The dialog's width, e.g. 'sm:max-w-lg'. */
  className: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {open && children}
      </DialogContent>
    </Dialog>
  );
}

/** Cancel and submit; both wait while the request runs. */
export function FormDialogActions({
  submitLabel,
  pending,
  onCancel,
}: {
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <DialogFooter className="mt-2">
      <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending && <Spinner />}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}
