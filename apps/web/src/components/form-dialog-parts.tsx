// The parts the forms share: the banner for an error that belongs to no field (auth forms and dialogs),
// and the Cancel / submit row of a form in a dialog, whose submit shows the request running.
import { CircleAlert } from 'lucide-react';

import { Spinner } from '@/components/spinner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';

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
