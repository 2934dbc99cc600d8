import { updateOrganizationSchema, type Organization } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Form } from '@/components/ui/form';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useRenameOrganization } from '../api/rename-organization';
import { applyServerError } from '../profile-forms';

type RenameFields = z.input<typeof updateOrganizationSchema>;
type RenameBody = z.output<typeof updateOrganizationSchema>;

const RENAME_FAILED = 'The organization could not be renamed. Try again.';

/** Manage Organization: renames it (admins and owners); the slug stays. */
export function RenameOrganizationDialog({
  organization,
  open,
  onOpenChange,
}: {
  organization: Organization;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Manage Organization"
      description="Rename your organization. Everyone in it sees the new name."
      className="sm:max-w-md"
    >
      <RenameForm organization={organization} onDone={() => onOpenChange(false)} />
    </FormDialog>
  );
}

function RenameForm({ organization, onDone }: { organization: Organization; onDone: () => void }) {
  const rename = useRenameOrganization(organization.id);
  const [banner, setBanner] = useState<string | null>(null);
  const form = useForm<RenameFields, unknown, RenameBody>({
    resolver: zodResolver(updateOrganizationSchema),
    defaultValues: { name: organization.name },
  });

  const onSubmit = ({ name }: RenameBody) => {
    setBanner(null);
    if (name === organization.name) {
      onDone();
      return;
    }
    rename.mutate(name, {
      onSuccess: (renamed) => {
        toast({ title: 'Organization renamed', description: `It is now called ${renamed.name}.` });
        onDone();
      },
      onError: (error) => {
        const setFieldError = (name: 'name', message: string) =>
          form.setError(name, { type: 'server', message });
        setBanner(applyServerError(parseApiError(error), ['name'], setFieldError, RENAME_FAILED));
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <TextField
          control={form.control}
          name="name"
          label="Organization name"
          autoComplete="organization"
          autoFocus
          description={`Its address name (${organization.slug}) stays the same.`}
        />
        <FormDialogActions submitLabel="Save" pending={rename.isPending} onCancel={onDone} />
      </form>
    </Form>
  );
}
