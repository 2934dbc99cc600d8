import type { Member, Organization, OrganizationRole } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut, UserMinus, Users } from 'lucide-react';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';

import { useChangeMemberRole, useMembers, useRemoveMember } from '../api/members';
import { memberControls, memberInitials, memberName, roleLabel, sortMembers } from '../team-permissions';
import { BlockedHint } from './blocked-hint';
import { RoleBadge } from './role-badge';
import { RoleSelect } from './role-select';

type Pending = { kind: 'remove' | 'leave'; member: Member } | null;

/** Everyone in the organization, with the role and removal controls this viewer may use. */
export function MembersCard({ organization, viewerId }: { organization: Organization; viewerId: string }) {
  const members = useMembers(organization.id);
  const changeRole = useChangeMemberRole(organization.id);
  const remove = useRemoveMember(organization.id);
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const viewer = { userId: viewerId, role: organization.role };
  const list = sortMembers(members.data ?? []);

  const onRoleChange = (member: Member, role: OrganizationRole) => {
    if (role === member.role) return;
    changeRole.mutate(
      { userId: member.userId, role },
      {
        onSuccess: () =>
          toast({ title: 'Role changed', description: `${memberName(member)} is now ${roleLabel(role)}.` }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Role not changed',
            description: getErrorMessage(error, 'The role could not be changed. Try again.'),
          }),
      },
    );
  };

  const onConfirm = () => {
    if (!pending) return;
    const { kind, member } = pending;
    remove.mutate(member.userId, {
      onSuccess: () => {
        setPending(null);
        if (kind === 'leave') {
          // The session's membership is gone: re-checking it moves to another organization or signs out.
          void queryClient.invalidateQueries({ queryKey: queryKeys.session });
          return;
        }
        toast({ title: 'Member removed', description: `${memberName(member)} is no longer in the team.` });
      },
      onError: (error) => {
        setPending(null);
        toast({
          variant: 'destructive',
          title: kind === 'leave' ? 'You cannot leave yet' : 'Member not removed',
          description: getErrorMessage(error, 'Try again.'),
        });
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users className="size-4 text-muted-foreground" aria-hidden="true" />
          Members
          {members.data && (
            <span className="text-sm font-normal text-muted-foreground">({members.data.length})</span>
          )}
        </CardTitle>
        <CardDescription>
          {organization.role === 'member'
            ? 'Everyone in your organization. Admins and owners manage roles and members.'
            : 'Everyone in your organization and their role'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {members.isLoading && (
          <div className="space-y-3">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        )}
        {members.isError && (
          <p className="text-sm text-destructive">
            {getErrorMessage(members.error, 'The members could not be loaded.')}
          </p>
        )}
        {members.data && (
          <ul aria-label="Members" className="divide-y">
            {list.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                self={member.userId === viewerId}
                controls={memberControls(viewer, member)}
                busy={
                  (changeRole.isPending && changeRole.variables?.userId === member.userId) ||
                  (remove.isPending && remove.variables === member.userId)
                }
                onRoleChange={(role) => onRoleChange(member, role)}
                onRemove={() => setPending({ kind: 'remove', member })}
                onLeave={() => setPending({ kind: 'leave', member })}
              />
            ))}
          </ul>
        )}
      </CardContent>

      <ConfirmDialog
        open={!!pending}
        onOpenChange={(open) => !open && setPending(null)}
        pending={remove.isPending}
        onConfirm={onConfirm}
        variant="destructive"
        title={pending?.kind === 'leave' ? `Leave ${organization.name}?` : 'Remove member?'}
        description={
          pending?.kind === 'leave'
            ? `You will lose access to ${organization.name}'s agents, workflows and runs. You keep your account and your other organizations.`
            : pending
              ? `${memberName(pending.member)} (${pending.member.email}) will lose access to ${organization.name} at once. Their account stays.`
              : ''
        }
        confirmLabel={pending?.kind === 'leave' ? 'Leave' : 'Remove'}
        pendingLabel={pending?.kind === 'leave' ? 'Leaving...' : 'Removing...'}
      />
    </Card>
  );
}

function MemberRow({
  member,
  self,
  controls,
  busy,
  onRoleChange,
  onRemove,
  onLeave,
}: {
  member: Member;
  self: boolean;
  controls: ReturnType<typeof memberControls>;
  busy: boolean;
  onRoleChange: (role: OrganizationRole) => void;
  onRemove: () => void;
  onLeave: () => void;
}) {
  const name = memberName(member);
  const canChangeRole = controls.roleOptions.length > 0;

  return (
    <li
      aria-label={name}
      className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 py-3 sm:grid-cols-[auto_minmax(0,1fr)_auto_auto]"
    >
      <span className="grid size-9 place-items-center rounded-full bg-linear-to-br from-violet-500 to-indigo-500 text-xs font-semibold text-white">
        {memberInitials(member)}
      </span>
      <div className="min-w-0">
        <p className="flex items-center gap-2 truncate text-sm font-medium">
          <span className="truncate">{name}</span>
          {self && <span className="shrink-0 text-xs font-normal text-muted-foreground">(you)</span>}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {member.email}
          <span className="hidden sm:inline"> · Joined {formatDate(member.joinedAt)}</span>
        </p>
      </div>

      <div className="col-start-2 flex items-center gap-2 sm:col-start-auto">
        {canChangeRole ? (
          <RoleSelect
            value={member.role}
            options={controls.roleOptions}
            onChange={onRoleChange}
            disabled={busy}
            label={`Role of ${name}`}
          />
        ) : controls.roleBlockedReason ? (
          <BlockedHint reason={controls.roleBlockedReason}>
            <RoleBadge role={member.role} />
          </BlockedHint>
        ) : (
          <RoleBadge role={member.role} />
        )}
        <span className="text-xs text-muted-foreground sm:hidden">Joined {formatDate(member.joinedAt)}</span>
      </div>

      <div
        className={cn(
          'col-start-2 -ml-3 flex justify-start sm:col-start-auto sm:ml-0 sm:min-w-24 sm:justify-end',
        )}
      >
        {controls.action === 'leave' && (
          <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={onLeave}>
            <LogOut aria-hidden="true" />
            Leave organization
          </Button>
        )}
        {controls.action === 'remove' && (
          <BlockedHint reason={controls.removeBlockedReason}>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              disabled={busy || !!controls.removeBlockedReason}
              aria-label={`Remove ${name}`}
              onClick={onRemove}
            >
              <UserMinus aria-hidden="true" />
              Remove
            </Button>
          </BlockedHint>
        )}
      </div>
    </li>
  );
}
