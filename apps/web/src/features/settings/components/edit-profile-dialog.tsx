import { messages, updateProfileSchema, type User } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useUpdateProfile } from '../api/profile';
import { applyServerError, changedProfileFields, PROFILE_FIELDS, profileFormValues } from '../profile-forms';

type ProfileFields = z.input<typeof updateProfileSchema>;
type ProfileBody = z.output<typeof updateProfileSchema>;

const SAVE_FAILED = 'Your profile could not be saved. Try again.';

/** Edit Profile: names, username and email, with the signup rules; saves through PUT /api/auth/me. */
export function EditProfileDialog({
  user,
  open,
  onOpenChange,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Edit Profile"
      description="Your name, username and the email you sign in with"
      className="sm:max-w-lg"
    >
      <EditProfileForm user={user} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function EditProfileForm({ user, onDone }: { user: User; onDone: () => void }) {
  const update = useUpdateProfile();
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<ProfileFields, unknown, ProfileBody>({
    resolver: zodResolver(updateProfileSchema),
    defaultValues: profileFormValues(user),
  });

  const onSubmit = (values: ProfileBody) => {
    setBanner(null);
    const changes = changedProfileFields(user, values);
    if (Object.keys(changes).length === 0) {
      onDone();
      return;
    }
    update.mutate(changes, {
      onSuccess: () => {
        toast({ title: messages.profileUpdated, description: 'Your changes have been saved.' });
        onDone();
      },
      onError: (error) => {
        const setFieldError = (name: keyof ProfileFields, message: string) =>
          form.setError(name, { type: 'server', message });
        setBanner(applyServerError(parseApiError(error), PROFILE_FIELDS, setFieldError, SAVE_FAILED));
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            control={form.control}
            name="firstName"
            label="First Name"
            autoComplete="given-name"
            placeholder="Ada"
            autoFocus
          />
          <TextField
            control={form.control}
            name="lastName"
            label="Last Name"
            autoComplete="family-name"
            placeholder="Lovelace"
          />
        </div>
        <TextField
          control={form.control}
          name="username"
          label="Username"
          autoComplete="username"
          spellCheck={false}
          description="Letters, digits, dots, dashes and underscores"
        />
        <TextField
          control={form.control}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          description="You sign in with this address"
        />
        <FormDialogActions submitLabel="Save Changes" pending={update.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}
