import { messages } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useChangePassword } from '../api/profile';
import {
  changePasswordBody,
  emptyPasswordForm,
  PASSWORD_FIELDS,
  passwordFormSchema,
  applyServerError,
  type PasswordFormValues,
} from '../profile-forms';

const CHANGE_FAILED = 'Your password could not be changed. Try again.';

/** Change Password: current, new and confirmation; other devices are signed out on success. */
export function ChangePasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Change Password"
      description="Your other devices are signed out; this one stays signed in."
      className="sm:max-w-md"
    >
      <ChangePasswordForm onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const change = useChangePassword();
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<PasswordFormValues>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: emptyPasswordForm,
  });

  const onSubmit = (values: PasswordFormValues) => {
    setBanner(null);
    change.mutate(changePasswordBody(values), {
      onSuccess: () => {
        toast({ title: messages.passwordChanged, description: 'Your other devices have been signed out.' });
        onDone();
      },
      onError: (error) => {
        const setFieldError = (name: keyof PasswordFormValues, message: string) =>
          form.setError(name, { type: 'server', message });
        // In the dialog, not a toast: the open dialog hides the notifications from screen readers.
        setBanner(applyServerError(parseApiError(error), PASSWORD_FIELDS, setFieldError, CHANGE_FAILED));
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <TextField
          control={form.control}
          name="currentPassword"
          label="Current Password"
          type="password"
          autoComplete="current-password"
          autoFocus
        />
        <TextField
          control={form.control}
          name="newPassword"
          label="New Password"
          type="password"
          autoComplete="new-password"
          placeholder="At least 6 characters"
        />
        <TextField
          control={form.control}
          name="confirmPassword"
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          placeholder="Repeat the new password"
        />
        <FormDialogActions submitLabel="Change Password" pending={change.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}
