import type { OAuthGrant, Organization } from '@crewline/contracts';
import { PlugZap, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useNow } from '@/lib/use-now';

import { useOAuthGrants, useRevokeOAuthGrant } from '../api/oauth-grants';

/**
 * Settings → API keys: the apps (Claude, ChatGPT, other MCP clients) a member connected to the
 * organization's MCP server by OAuth. Owners and admins see and revoke every one; a member their own.
 */
export function ConnectedAppsCard({ organization }: { organization: Organization }) {
  const grants = useOAuthGrants();
  const revoke = useRevokeOAuthGrant();
  const [revoking, setRevoking] = useState<OAuthGrant | null>(null);
  const now = useNow(true, 30_000);
  const manager = organization.role === 'owner' || organization.role === 'admin';

  const onRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'App disconnected', description: `${revoking.clientName} no longer has access.` });
        setRevoking(null);
      },
      onError: (error) => {
        setRevoking(null);
        toast({
          variant: 'destructive',
          title: 'App not disconnected',
          description: getErrorMessage(error, 'Try again.'),
        });
      },
    });
  };

  return (
    <Card data-testid="connected-apps-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <PlugZap className="size-4 text-muted-foreground" aria-hidden="true" />
          Connected apps
        </CardTitle>
        <CardDescription>
          {manager
            ? `Apps that members allowed to use ${organization.name}’s MCP server. Revoking one stops it at once.`
            : `Apps you allowed to use ${organization.name}’s MCP server. Revoking one stops it at once.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {grants.isPending ? (
          <div className="space-y-3" aria-busy="true" aria-label="Loading connected apps">
            <Skeleton className="h-12 w-full" />
          </div>
        ) : grants.isError ? (
          <LoadErrorState
            icon={PlugZap}
            title={getErrorMessage(grants.error, 'The connected apps could not be loaded.')}
            onRetry={() => void grants.refetch()}
          />
        ) : grants.data.length === 0 ? (
          <EmptyState
            icon={PlugZap}
            title="No connected apps"
            description="When someone connects Claude, ChatGPT or another MCP client with OAuth and allows it, it shows here."
          />
        ) : (
          <ul aria-label="Connected apps" className="divide-y">
            {grants.data.map((grant) => (
              <li
                key={grant.id}
                aria-label={grant.clientName}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 first:pt-0 last:pb-0"
              >
                <div className="min-w-0 flex-1 space-y-0.5">
                  <p className="truncate text-sm font-medium" title={grant.clientName}>
                    {grant.clientName}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Connected by {grant.grantedBy.name || 'a former member'}{' '}
                    <time dateTime={grant.createdAt} title={formatDateTime(grant.createdAt)}>
                      {formatRelativeTime(grant.createdAt, now)}
                    </time>
                    {' · '}
                    {grant.lastUsedAt ? (
                      <>
                        Last used{' '}
                        <time dateTime={grant.lastUsedAt} title={formatDateTime(grant.lastUsedAt)}>
                          {formatRelativeTime(grant.lastUsedAt, now)}
                        </time>
                      </>
                    ) : (
                      'Never used'
                    )}
                  </p>
                </div>
                {grant.canRevoke && (
                  <Button
                    type="button"
                    variant="ghost"
                    size="sm"
                    className="-mr-2 text-destructive hover:bg-destructive/10 hover:text-destructive"
                    aria-label={`Revoke ${grant.clientName}`}
                    onClick={() => setRevoking(grant)}
                  >
                    <Trash2 aria-hidden="true" />
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        pending={revoke.isPending}
        onConfirm={onRevoke}
        variant="destructive"
        title="Revoke access"
        description={
          revoking
            ? `${revoking.clientName} can no longer run ${organization.name}’s workflows. To use it again, connect it again.`
            : ''
        }
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
      />
    </Card>
  );
}
