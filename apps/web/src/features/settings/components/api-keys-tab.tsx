import { billingMessages, type ApiKey, type Organization } from '@crewline/contracts';
import { ArrowUpRight, Check, KeyRound, Lock, Plus, Trash2, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { planName } from '@/lib/billing';
import { formatDate, formatDateTime, formatRelativeTime } from '@/lib/format';
import { useSubscription } from '@/lib/queries/subscription';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';

import { useApiKeys, useRevokeApiKey } from '../api/api-keys';
import {
  API_KEY_HEADER_EXAMPLE,
  API_KEYS_DOCS_PATH,
  apiKeyExpiry,
  canManageApiKeys,
  createdByLabel,
  hasApiAccess,
  lastUsedLabel,
  maskedKey,
} from '../api-keys';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { ConnectedAppsCard } from './connected-apps-card';
import { McpServerCard } from './mcp-server-card';

const ONLY_ADMINS_MANAGE_KEYS = 'Only owners and admins manage API keys';

/**
 * Settings → API keys: what a key may do, how to send it, the organization's keys (admins), and its
 * MCP server, whose clients send those keys.
 */
export function ApiKeysTab({ organization }: { organization: Organization }) {
  const manager = canManageApiKeys(organization.role);
  const keys = useApiKeys(organization.id, manager);
  const subscription = useSubscription();
  const revoke = useRevokeApiKey(organization.id);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // Relative times ('5 minutes ago') and the Expired badge follow the clock.
  const now = useNow(true, 30_000);
  const access = hasApiAccess(subscription.data);
  const plan = subscription.data?.plan ?? 'free';

  const onRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'API key revoked', description: `“${revoking.name}” no longer works.` });
        setRevoking(null);
      },
      onError: (error) => {
        setRevoking(null);
        toast({
          variant: 'destructive',
          title: 'API key not revoked',
          description: getErrorMessage(error, 'Try again.'),
        });
      },
    });
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
            API access
          </CardTitle>
          <CardDescription>
            Let scripts, CI jobs and other services call the Crewline API for {organization.name}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
          <div className="space-y-3 text-sm">
            <p>A key acts as a member of this organization. Programs that send it can:</p>
            <ul className="space-y-1.5" aria-label="What a key can do">
              <Can>Run workflows and read their runs</Can>
              <Can>Manage agents and workflows</Can>
              <Can no>Billing, members, connections and API keys stay out of reach</Can>
            </ul>
          </div>
          <div className="min-w-0 space-y-2 rounded-lg border bg-muted/40 p-4">
            <p className="text-sm font-medium">Send the key in a header</p>
            <div className="flex min-w-0 items-center rounded-md border bg-background px-3 py-2">
              <code className="min-w-0 flex-1 truncate font-mono text-xs">{API_KEY_HEADER_EXAMPLE}</code>
            </div>
            <Button asChild variant="link" size="sm" className="h-auto px-0 has-[>svg]:px-0">
              <Link to={API_KEYS_DOCS_PATH}>
                Read the API key guide
                <ArrowUpRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      {manager && !access && (
        <PlanLimitAlert
          info={{
            message: billingMessages.apiAccess(planName(plan)),
            limit: 'api_access',
            plan,
          }}
        />
      )}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            API keys
            {keys.data && keys.data.length > 0 && (
              <span className="text-sm font-normal text-muted-foreground">({keys.data.length})</span>
            )}
          </CardTitle>
          {manager && (
            <>
              <CardDescription>Each key is shown once. Revoking one stops it at once.</CardDescription>
              <CardAction>
                <Button size="sm" onClick={() => setCreating(true)}>
                  <Plus aria-hidden="true" />
                  Create key
                </Button>
              </CardAction>
            </>
          )}
        </CardHeader>
        <CardContent>
          {!manager ? (
            <EmptyState
              icon={Lock}
              title={ONLY_ADMINS_MANAGE_KEYS}
              description={`Ask an owner or admin of ${organization.name} for a key. The keys and who made them are visible to them only.`}
            />
          ) : keys.isPending ? (
            <KeysSkeleton />
          ) : keys.isError ? (
            <LoadErrorState
              icon={KeyRound}
              title={getErrorMessage(keys.error, 'The API keys could not be loaded.')}
              onRetry={() => void keys.refetch()}
            />
          ) : keys.data.length === 0 ? (
            <EmptyState
              icon={KeyRound}
              title="No API keys yet"
              description="Create a key to call the Crewline API from your own programs."
              action={
                <Button size="sm" variant="outline" onClick={() => setCreating(true)}>
                  <Plus aria-hidden="true" />
                  Create your first key
                </Button>
              }
            />
          ) : (
            <KeysList keys={keys.data} now={now} onRevoke={setRevoking} />
          )}
        </CardContent>
      </Card>

      {/* The organization's MCP endpoint: its clients authenticate with these keys. */}
      <McpServerCard />

      {/* The apps connected to that server by OAuth instead of a key (modules/oauth). */}
      <ConnectedAppsCard organization={organization} />

      {manager && (
        <CreateApiKeyDialog organization={organization} open={creating} onOpenChange={setCreating} />
      )}
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        pending={revoke.isPending}
        onConfirm={onRevoke}
        variant="destructive"
        title="Revoke API key"
        description={
          revoking
            ? `Programs using “${revoking.name}” (${maskedKey(revoking.prefix)}) stop working at once. This cannot be undone.`
            : ''
        }
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
      />
    </div>
  );
}

function Can({ no, children }: { no?: boolean; children: string }) {
  const Icon = no ? X : Check;
  return (
    <li className="flex items-start gap-2">
      <Icon
        className={cn(
          'mt-0.5 size-4 shrink-0',
          no ? 'text-muted-foreground' : 'text-emerald-600 dark:text-emerald-400',
        )}
        aria-hidden="true"
      />
      <span className={cn(no && 'text-muted-foreground')}>{children}</span>
    </li>
  );
}

function KeysSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Loading API keys">
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-12 w-full" />
    </div>
  );
}

/** A time as 'how long ago', the exact time on hover. */
function Ago({ at, now }: { at: string; now: number }) {
  return (
    <time dateTime={at} title={formatDateTime(at)} className="whitespace-nowrap">
      {formatRelativeTime(at, now)}
    </time>
  );
}

function Expires({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const expiry = apiKeyExpiry(apiKey, now, (iso) => formatDate(iso));
  if (expiry.state === 'never') return <span className="text-muted-foreground">Never</span>;
  if (expiry.state === 'expired') {
    return (
      <span title={`Expired ${formatDateTime(expiry.at)}`}>
        <StatusBadge label="Expired" tone="red" />
      </span>
    );
  }
  return (
    <time
      dateTime={expiry.at}
      title={formatDateTime(expiry.at)}
      className={cn(
        'whitespace-nowrap',
        expiry.state === 'soon' && 'font-medium text-amber-700 dark:text-amber-400',
      )}
    >
      {expiry.label}
    </time>
  );
}

function LastUsed({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  if (!apiKey.lastUsedAt)
    return <span className="text-muted-foreground">{lastUsedLabel(apiKey, String)}</span>;
  return <Ago at={apiKey.lastUsedAt} now={now} />;
}

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      aria-label={`Revoke ${apiKey.name}`}
      onClick={() => onRevoke(apiKey)}
    >
      <Trash2 aria-hidden="true" />
      Revoke
    </Button>
  );
}

const th = 'px-3 py-2 text-left text-xs font-medium whitespace-nowrap text-muted-foreground';
const td = 'px-3 py-3 align-middle';

/** A table from lg up, cards below (a phone has no room for seven columns). */
function KeysList({ keys, now, onRevoke }: { keys: ApiKey[]; now: number; onRevoke: (key: ApiKey) => void }) {
  return (
    <>
      <div className="-mx-3 hidden overflow-x-auto lg:block">
        <table className="w-full text-sm" aria-label="API keys">
          <thead>
            <tr>
              <th className={th}>Name</th>
              <th className={th}>Key</th>
              <th className={th}>Created by</th>
              <th className={th}>Created</th>
              <th className={th}>Expires</th>
              <th className={th}>Last used</th>
              <th className={th}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} aria-label={key.name} className="border-t">
                <td className={cn(td, 'max-w-56 font-medium')}>
                  <span className="block truncate" title={key.name}>
                    {key.name}
                  </span>
                </td>
                <td className={td}>
                  <KeyPrefix prefix={key.prefix} />
                </td>
                <td className={cn(td, 'max-w-44')}>
                  <span className="block truncate">{createdByLabel(key)}</span>
                </td>
                <td className={td}>
                  <Ago at={key.createdAt} now={now} />
                </td>
                <td className={td}>
                  <Expires apiKey={key} now={now} />
                </td>
                <td className={td}>
                  <LastUsed apiKey={key} now={now} />
                </td>
                <td className={cn(td, 'text-right')}>
                  <RevokeButton apiKey={key} onRevoke={onRevoke} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label="API keys" className="divide-y lg:hidden">
        {keys.map((key) => (
          <li
            key={key.id}
            aria-label={key.name}
            className="grid grid-cols-[minmax(0,1fr)] gap-2 py-3 first:pt-0 last:pb-0"
          >
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0 space-y-1">
                <p className="line-clamp-2 text-sm font-medium break-words">{key.name}</p>
                <KeyPrefix prefix={key.prefix} />
              </div>
              <div className="-mr-2 shrink-0">
                <RevokeButton apiKey={key} onRevoke={onRevoke} />
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm *:min-w-0">
              <Fact label="Created by">
                <span className="block truncate">{createdByLabel(key)}</span>
              </Fact>
              <Fact label="Created">
                <Ago at={key.createdAt} now={now} />
              </Fact>
              <Fact label="Expires">
                <Expires apiKey={key} now={now} />
              </Fact>
              <Fact label="Last used">
                <LastUsed apiKey={key} now={now} />
              </Fact>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function KeyPrefix({ prefix }: { prefix: string }) {
  return (
    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-nowrap">
      {maskedKey(prefix)}
    </code>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
