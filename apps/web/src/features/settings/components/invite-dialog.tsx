import { createInvitationSchema, type CreatedInvitation, type Organization } from '@crewline/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck, MailWarning } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { FormBanner, FormDialog, FormDialogActions } from '@/components/form-dialog-parts';
import { TextField } from '@/components/text-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';
import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { parseApiError } from '@/lib/api';
import { formatDate } from '@/lib/format';

import { useCreateInvitation } from '../api/invitations';
import { applyServerError } from '../profile-forms';
import {
  inviteDeliveryText,
  invitableRoles,
  offersVerificationLink,
  ROLE_DESCRIPTIONS,
  roleLabel,
} from '../team-permissions';
import { RoleSelect } from './role-select';
import { ShownOnceField } from './shown-once-field';
import { VerificationLinkButton } from './verification-link';

type InviteFields = z.input<typeof createInvitationSchema>;
type InviteBody = z.output<typeof createInvitationSchema>;

const INVITE_FAILED = 'The invitation could not be created. Try again.';

/** Invite Member: an email and a role; then the single-use link, shown this once, to copy. */
export function InviteDialog({
  organization,
  open,
  onOpenChange,
}: {
  organization: Organization;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setCreated(null);
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      title={created ? 'Invitation created' : 'Invite Member'}
      description={
        created
          ? `${created.email} joins ${organization.name} as ${roleLabel(created.role).toLowerCase()} with this link.`
          : `They sign up or sign in with this address and join ${organization.name}.`
      }
      className="sm:max-w-lg"
    >
      {created ? (
        <InviteLink
          orgId={organization.id}
          invitation={created}
          onAnother={() => setCreated(null)}
          onDone={() => close(false)}
        />
      ) : (
        <InviteForm organization={organization} onCreated={setCreated} onCancel={() => close(false)} />
      )}
    </FormDialog>
  );
}

function InviteForm({
  organization,
  onCreated,
  onCancel,
}: {
  organization: Organization;
  onCreated: (invitation: CreatedInvitation) => void;
  onCancel: () => void;
}) {
  const create = useCreateInvitation(organization.id);
  const [banner, setBanner] = useState<string | null>(null);
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  const roles = invitableRoles(organization.role);
  const form = useForm<InviteFields, unknown, InviteBody>({
    resolver: zodResolver(createInvitationSchema),
    defaultValues: { email: '', role: 'member' },
  });

  const onSubmit = (values: InviteBody) => {
    setBanner(null);
    setPlanLimit(null);
    create.mutate(values, {
      onSuccess: onCreated,
      onError: (error) => {
        // The plan's member limit: the server's message with 'Upgrade', in the dialog.
        const limit = readPlanLimitError(error);
        if (limit) {
          setPlanLimit(limit);
          return;
        }
        const setFieldError = (name: 'email', message: string) =>
          form.setError(name, { type: 'server', message });
        setBanner(applyServerError(parseApiError(error), ['email'], setFieldError, INVITE_FAILED));
      },
    });
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
        <FormBanner message={banner} />
        <PlanLimitAlert info={planLimit} />
        <TextField
          control={form.control}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          placeholder="teammate@company.com"
          autoFocus
        />
        <FormField
          control={form.control}
          name="role"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Role</FormLabel>
              <FormControl>
                <RoleSelect
                  value={field.value ?? 'member'}
                  options={roles}
                  onChange={field.onChange}
                  className="w-full sm:w-48"
                />
              </FormControl>
              <FormDescription>{ROLE_DESCRIPTIONS[field.value ?? 'member']}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogActions submitLabel="Create invitation" pending={create.isPending} onCancel={onCancel} />
      </form>
    </Form>
  );
}

function InviteLink({
  orgId,
  invitation,
  onAnother,
  onDone,
}: {
  orgId: string;
  invitation: CreatedInvitation;
  onAnother: () => void;
  onDone: () => void;
}) {
  const Icon = invitation.emailSent ? MailCheck : MailWarning;
  return (
    <div className="grid gap-4">
      <ShownOnceField
        id="invite-link"
        label="Invitation link"
        value={invitation.inviteUrl}
        copyLabel="invitation link"
      >
        Works once, until {formatDate(invitation.expiresAt)}, for {invitation.email} only. It is shown only
        now.
      </ShownOnceField>
      <Alert>
        <Icon aria-hidden="true" />
        <AlertDescription>{inviteDeliveryText(invitation)}</AlertDescription>
      </Alert>
      {offersVerificationLink(invitation) && (
        // Once the invitee has signed up: their address has no other way to be verified.
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <p className="min-w-0 flex-1 basis-56 text-xs text-muted-foreground">
            Once {invitation.email} has signed up, get their verification link to pass on too.
          </p>
          <VerificationLinkButton orgId={orgId} invitation={invitation} />
        </div>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onAnother}>
          Invite someone else
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
