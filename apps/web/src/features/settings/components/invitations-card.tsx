import type { Invitation, Organization } from '@crewline/contracts';
import { MailPlus, Send, X } from 'lucide-react';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';

import { useInvitations, useRevokeInvitation } from '../api/invitations';
import { offersVerificationLink } from '../team-permissions';
import { InviteDialog } from './invite-dialog';
import { RoleBadge } from './role-badge';
import { VerificationLinkButton } from './verification-link';

/** The pending invitations and Invite Member (admins and owners only: they hold outsiders' addresses). */
export function InvitationsCard({ organization }: { organization: Organization }) {
  const invitations = useInvitations(organization.id, true);
  const revoke = useRevokeInvitation(organization.id);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  const onRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({
          title: 'Invitation revoked',
          description: `The link sent to ${revoking.email} no longer works.`,
        });
        setRevoking(null);
      },
      onError: (error) => {
        setRevoking(null);
        toast({
          variant: 'destructive',
          title: 'Invitation not revoked',
          description: getErrorMessage(error, 'Try again.'),
        });
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send className="size-4 text-muted-foreground" aria-hidden="true" />
          Invitations
        </CardTitle>
        <CardDescription>Pending invitations: each link works once, for 7 days</CardDescription>
        <CardAction>
          <Button size="sm" onClick={() => setInviting(true)}>
            <MailPlus aria-hidden="true" />
            Invite Member
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {invitations.isLoading && <Skeleton className="h-12 w-full" />}
        {invitations.isError && (
          <p className="text-sm text-destructive">
            {getErrorMessage(invitations.error, 'The invitations could not be loaded.')}
          </p>
        )}
        {invitations.data?.length === 0 && (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            No pending invitations. Invite a teammate to build with you.
          </p>
        )}
        {!!invitations.data?.length && (
          <ul aria-label="Pending invitations" className="divide-y">
            {invitations.data.map((invitation) => (
              <li
                key={invitation.id}
                aria-label={invitation.email}
                className="flex flex-wrap items-center gap-x-3 gap-y-1.5 py-3"
              >
                <div className="min-w-0 flex-1 basis-56">
                  <p className="truncate text-sm font-medium">{invitation.email}</p>
                  <p className="truncate text-xs text-muted-foreground">
                    {invitation.invitedBy ? `Invited by ${invitation.invitedBy} · ` : ''}
                    Expires {formatDate(invitation.expiresAt)}
                  </p>
                </div>
                <RoleBadge role={invitation.role} />
                {offersVerificationLink(invitation) && (
                  <VerificationLinkButton orgId={organization.id} invitation={invitation} />
                )}
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                  aria-label={`Revoke the invitation of ${invitation.email}`}
                  onClick={() => setRevoking(invitation)}
                >
                  <X aria-hidden="true" />
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      <InviteDialog organization={organization} open={inviting} onOpenChange={setInviting} />
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        pending={revoke.isPending}
        onConfirm={onRevoke}
        variant="destructive"
        title="Revoke invitation?"
        description={revoking ? `The link sent to ${revoking.email} will stop working.` : ''}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
      />
    </Card>
  );
}
