import type { Organization } from '@crewline/contracts';
import { Building2, Settings2 } from 'lucide-react';
import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useSubscription } from '@/lib/queries/subscription';

import { planName } from '@/lib/billing';
import { canManageTeam, NEEDS_ADMIN, ORGANIZATION_READ_ONLY } from '../team-permissions';
import { BlockedHint } from './blocked-hint';
import { DetailRow, IdValue } from './details';
import { InvitationsCard } from './invitations-card';
import { MembersCard } from './members-card';
import { RenameOrganizationDialog } from './rename-organization-dialog';
import { RoleBadge } from './role-badge';
import { ApprovalNotificationsCard } from './approval-notifications-card';
import { TrustedSendersCard } from './trusted-senders-card';

export function OrganizationTab({
  organization,
  viewerId,
}: {
  organization: Organization;
  viewerId: string;
}) {
  const [renaming, setRenaming] = useState(false);
  const manager = canManageTeam(organization.role);
  // The effective plan, as Billing shows it (Free once a trial ended), not the session's stored plan.
  const subscription = useSubscription();

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Building2 className="size-4 text-muted-foreground" aria-hidden="true" />
            Organization
          </CardTitle>
          <CardDescription>Agents, workflows, tools and billing belong to your organization</CardDescription>
          <CardAction>
            <BlockedHint reason={manager ? null : NEEDS_ADMIN}>
              <Button
                variant="outline"
                size="sm"
                disabled={!manager}
                aria-label="Manage Organization"
                onClick={() => setRenaming(true)}
              >
                <Settings2 aria-hidden="true" />
                {/* A phone's card header has room for one word. */}
                <span className="sm:hidden">Manage</span>
                <span className="hidden sm:inline">Manage Organization</span>
              </Button>
            </BlockedHint>
          </CardAction>
        </CardHeader>
        <CardContent>
          <dl className="divide-y">
            <DetailRow label="Name">
              <span className="truncate">{organization.name}</span>
            </DetailRow>
            <DetailRow label="Organization ID">
              <IdValue value={organization.id} label="organization ID" />
            </DetailRow>
            <DetailRow label="Created">{formatDate(organization.createdAt)}</DetailRow>
            <DetailRow label="Current plan">
              {subscription.data ? (
                <Badge
                  variant="outline"
                  className="border-primary/30 bg-primary/5 text-primary"
                  data-testid="organization-plan"
                >
                  {planName(subscription.data.plan)}
                  {subscription.data.status === 'trialing' && ' (trial)'}
                </Badge>
              ) : (
                <Skeleton className="h-5 w-20" />
              )}
            </DetailRow>
            <DetailRow label="Your role">
              <RoleBadge role={organization.role} />
            </DetailRow>
          </dl>
          {!manager && (
            <p className="mt-4 text-sm text-muted-foreground" data-testid="organization-read-only">
              {ORGANIZATION_READ_ONLY}
            </p>
          )}
        </CardContent>
      </Card>

      <MembersCard organization={organization} viewerId={viewerId} />
      {manager && <InvitationsCard organization={organization} />}
      <TrustedSendersCard manager={manager} />
      <ApprovalNotificationsCard manager={manager} />

      <RenameOrganizationDialog organization={organization} open={renaming} onOpenChange={setRenaming} />
    </div>
  );
}
