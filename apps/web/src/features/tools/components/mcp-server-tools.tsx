// An MCP server connection's tools as last listed: each with its hints' badge and the switch that
// allows it to the organization's agents and workflows, with Refresh tools and when it was listed.
// An OAuth connection also shows whether it is signed in, and (to owners and admins) its sign-in.
import { mcpMessages, type McpOauthStatus, type McpToolInfo, type Tool } from '@crewline/contracts';
import { CircleAlert, RefreshCw } from 'lucide-react';

import { canSignInToMcp, McpOauthBadge, McpSignInButton } from '@/components/mcp-oauth-sign-in';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useMcpTools } from '@/lib/mcp-tools';
import { useAuth } from '@/lib/session';

import { useRefreshMcpTools, useSetMcpToolAllowed } from '../api/mcp-tools';
import { isMcpToolAllowed, mcpToolBadge } from '../mcp-server-tools';

function McpToolRow({
  tool,
  allowed,
  pending,
  onAllowed,
}: {
  tool: McpToolInfo;
  allowed: boolean;
  pending: boolean;
  onAllowed: (allowed: boolean) => void;
}) {
  const badge = mcpToolBadge(tool);
  return (
    <li
      aria-label={tool.name}
      data-allowed={allowed}
      className="flex items-start gap-3 rounded-lg border bg-card px-3 py-2.5 data-[allowed=false]:bg-muted/40"
    >
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-medium break-all">{tool.name}</span>
          {/* As the product writes them (the badge capitalises every word otherwise). */}
          {badge && (
            <StatusBadge
              label={badge}
              tone={badge === 'Read-only' ? 'green' : 'red'}
              className="normal-case"
            />
          )}
        </div>
        {(tool.title || tool.description) && (
          <p className="line-clamp-3 text-sm text-muted-foreground">{tool.description || tool.title}</p>
        )}
      </div>
      <label className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
        {/* A phone keeps the width for the tool's name; the switch's own label still says Allowed. */}
        <span className="hidden sm:inline">Allowed</span>
        <Switch
          checked={allowed}
          disabled={pending}
          onCheckedChange={onAllowed}
          aria-label={`Allowed: ${tool.name}`}
        />
      </label>
    </li>
  );
}

/** An OAuth connection's sign-in: its state, and Sign in / Reconnect / Sign in again for managers. */
function McpOauthRow({ toolId, status }: { toolId: string; status: McpOauthStatus }) {
  const { organization } = useAuth();
  const manager = canSignInToMcp(organization?.role);
  const note =
    status === 'disconnected'
      ? manager
        ? 'Sign in to the server in a popup to list its tools.'
        : 'An owner or admin signs in to the server to list its tools.'
      : status === 'reconnect'
        ? manager
          ? 'The server no longer accepts the sign-in: reconnect to use its tools again.'
          : 'The server no longer accepts the sign-in: an owner or admin reconnects it.'
        : null;
  return (
    <div className="flex flex-col gap-2 rounded-lg border bg-muted/30 px-3 py-2.5 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          OAuth
          <McpOauthBadge status={status} />
        </p>
        {note && (
          <p id="mcp-oauth-note" className="text-xs text-muted-foreground">
            {note}
          </p>
        )}
      </div>
      {manager && (
        <McpSignInButton
          toolId={toolId}
          status={status}
          describedBy={note ? 'mcp-oauth-note' : undefined}
          className="self-start sm:self-center"
        />
      )}
    </div>
  );
}

/** The server's tools with their Allowed switches, Refresh tools and the listing's time or error. */
export function McpServerTools({ tool }: { tool: Tool }) {
  const listing = useMcpTools(tool.id);
  const refresh = useRefreshMcpTools(tool.id);
  const setAllowed = useSetMcpToolAllowed(tool);
  const list = listing.data;
  const names = list?.tools.map((item) => item.name) ?? [];
  const pendingName = setAllowed.isPending ? setAllowed.variables?.name : undefined;
  const oauth = list?.oauth ?? null;
  // Never signed in: nothing to list or refresh until someone signs in.
  const signedOut = oauth === 'disconnected';
  // The OAuth row says it already when the server refused a refresh (or nobody signed in yet).
  const error =
    list?.error && !signedOut && !(oauth === 'reconnect' && list.error === mcpMessages.reconnect(tool.name))
      ? list.error
      : null;

  return (
    <div className="space-y-3">
      {oauth && <McpOauthRow toolId={tool.id} status={oauth} />}
      {!signedOut && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {list?.listedAt ? (
              <time dateTime={list.listedAt} title={formatDateTime(list.listedAt)}>
                Listed {formatRelativeTime(list.listedAt)}
              </time>
            ) : listing.isPending ? (
              'Reading the server’s tools…'
            ) : (
              'Not listed yet'
            )}
          </p>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={refresh.isPending || listing.isPending}
            aria-busy={refresh.isPending}
            onClick={() => refresh.mutate()}
          >
            <RefreshCw className={refresh.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
            Refresh tools
          </Button>
        </div>
      )}

      {error && (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm wrap-anywhere text-destructive"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {error}
        </p>
      )}

      {signedOut ? null : listing.isPending ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading the server’s tools">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      ) : listing.isError ? (
        <p className="text-sm text-destructive">Could not load the server’s tools.</p>
      ) : list && list.tools.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {list.error ? 'No tools listed.' : 'The server offers no tools.'}
        </p>
      ) : (
        <ul className="space-y-2" aria-label="Server tools">
          {list?.tools.map((item) => (
            <McpToolRow
              key={item.name}
              tool={item}
              allowed={isMcpToolAllowed(tool.config, item.name)}
              pending={pendingName === item.name}
              onAllowed={(allowed) => setAllowed.mutate({ all: names, name: item.name, allowed })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
