// Settings → Tools: the organization's MCP server connections (tools of the `mcp` category), each with
// its URL, how many tools it lists and why the last listing failed, and an OAuth connection's sign-in.
// Adding one and its tools' switches are the Tools page's (its form and Server tools dialog): this card
// links there.
import { mcpMessages, type Tool } from '@crewline/contracts';
import { CircleAlert, ListChecks, Network, Plus } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';

import {
  canSignInToMcp,
  MCP_SIGN_IN_FAILED,
  McpOauthBadge,
  McpSignInButton,
} from '@/components/mcp-oauth-sign-in';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { allowedMcpTools, useMcpTools } from '@/lib/mcp-tools';
import { useTools } from '@/lib/queries/tools';
import { useAuth } from '@/lib/session';

function McpServerRow({ tool, manager }: { tool: Tool; manager: boolean }) {
  const listing = useMcpTools(tool.id);
  const url = typeof tool.config.url === 'string' ? tool.config.url : '';
  const tools = listing.data?.tools ?? [];
  const allowed = allowedMcpTools(tools, tool.config).length;
  const oauth = listing.data?.oauth ?? null;
  const count = listing.isPending
    ? 'Reading tools…'
    : listing.isError
      ? 'Could not read its tools'
      : oauth === 'disconnected'
        ? 'Not listed until someone signs in'
        : `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}${
            allowed < tools.length ? ` · ${allowed} allowed` : ''
          }`;
  // The reconnect line below says it in the card's own words.
  const error =
    listing.data?.error && !(oauth === 'reconnect' && listing.data.error === mcpMessages.reconnect(tool.name))
      ? listing.data.error
      : null;
  const nameId = `mcp-server-${tool.id}-name`;
  return (
    <li
      aria-label={tool.name}
      className="flex flex-col gap-2 rounded-lg border bg-card px-3 py-2.5 sm:flex-row sm:items-center"
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p id={nameId} className="truncate font-medium" title={tool.name}>
          {tool.name}
          {!tool.isActive && <span className="ml-2 text-xs font-normal text-muted-foreground">Inactive</span>}
        </p>
        <p className="truncate font-mono text-xs text-muted-foreground" title={url}>
          {url}
        </p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          {oauth && <McpOauthBadge status={oauth} />}
          {count}
        </p>
        {oauth === 'reconnect' && (
          <p className="flex items-start gap-1.5 text-xs wrap-anywhere text-destructive">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            {manager
              ? 'The server no longer accepts its sign-in: reconnect to use its tools again.'
              : 'The server no longer accepts its sign-in: an owner or admin reconnects it.'}
          </p>
        )}
        {error && (
          <p className="flex items-start gap-1.5 text-xs wrap-anywhere text-destructive">
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            {error}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 self-start sm:self-center">
        {oauth && manager && <McpSignInButton toolId={tool.id} status={oauth} describedBy={nameId} />}
        <Button asChild variant="outline" size="sm">
          <Link
            to={`/tools?serverTools=${encodeURIComponent(tool.id)}`}
            aria-label={`Server tools of ${tool.name}`}
          >
            <ListChecks aria-hidden="true" />
            Server tools
          </Link>
        </Button>
      </div>
    </li>
  );
}

/**
 * Back from an MCP server's sign-in without the popup's opener (the server's callback sends the
 * browser here with `mcp_connected=true` or `mcp_error=true`): say how it went, drop the parameter.
 */
function useMcpSignInReturn() {
  const [searchParams, setSearchParams] = useSearchParams();
  // A full page load (the callback redirected the browser here): the listings are read afresh anyway.
  useEffect(() => {
    const connected = searchParams.get('mcp_connected') === 'true';
    const failed = searchParams.get('mcp_error') === 'true';
    if (!connected && !failed) return;
    if (failed) {
      toast({ variant: 'destructive', title: 'Sign-in failed', description: MCP_SIGN_IN_FAILED });
    } else {
      toast({ title: 'MCP server connected' });
    }
    const rest = new URLSearchParams(searchParams);
    rest.delete('mcp_connected');
    rest.delete('mcp_error');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);
}

/** MCP servers: the connections, and Add MCP server (the tool form on the MCP Server category). */
export function McpServersCard() {
  const tools = useTools();
  const servers = (tools.data ?? []).filter((tool) => tool.category === 'mcp');
  const { organization } = useAuth();
  const manager = canSignInToMcp(organization?.role);
  useMcpSignInReturn();

  return (
    <Card role="region" aria-labelledby="mcp-servers-title" className="gap-5">
      <CardHeader className="gap-x-3 has-data-[slot=card-action]:grid-cols-[auto_minmax(0,1fr)_auto]">
        <span className="row-span-2 grid size-10 place-items-center rounded-lg bg-teal-500/10 text-teal-600 dark:text-teal-400">
          <Network className="size-5" aria-hidden="true" />
        </span>
        <CardTitle id="mcp-servers-title" className="self-center">
          MCP servers
        </CardTitle>
        <CardDescription className="col-span-2 col-start-2">
          Remote servers whose tools your agents and workflows call
        </CardDescription>
        <CardAction className="col-start-3 row-span-1 self-center">
          <Button asChild size="sm" variant="outline">
            <Link to="/tools?new=mcp">
              <Plus aria-hidden="true" />
              Add MCP server
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="text-sm">
        {tools.isPending ? (
          <div className="space-y-2" aria-busy="true" aria-label="Loading MCP servers">
            <Skeleton className="h-16 w-full" />
          </div>
        ) : tools.isError ? (
          <p className="text-muted-foreground">Could not load your MCP servers.</p>
        ) : servers.length === 0 ? (
          <p className="text-muted-foreground">
            No MCP server yet. Add one by its URL, and choose which of its tools your agents may call.
          </p>
        ) : (
          <ul className="space-y-2" aria-label="MCP servers">
            {servers.map((tool) => (
              <McpServerRow key={tool.id} tool={tool} manager={manager} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
