// Settings → API keys: the organization's MCP server (GET /api/mcp-server). Its endpoint, the
// workflows published on it (each links to its builder, where its MCP section publishes it), and the
// configuration an MCP client reads, with a placeholder where one of the organization's API keys goes.
import type { McpServerInfo } from '@crewline/contracts';
import { ArrowUpRight, Plug } from 'lucide-react';
import { Link } from 'react-router';

import { CopyButton } from '@/components/copy-button';
import { LoadErrorState } from '@/components/empty-state';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api';
import { MCP_API_KEY_PLACEHOLDER, mcpClientConfig } from '@/lib/mcp-client-config';

import { useMcpServer } from '../api/mcp-server';

const MCP_SERVER_DOCS_PATH = '/docs/mcp-server';

const Code = ({ children }: { children: string }) => (
  <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{children}</code>
);

export function McpServerCard() {
  const server = useMcpServer();

  return (
    <Card role="region" aria-label="MCP server">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Plug className="size-4 text-muted-foreground" aria-hidden="true" />
          MCP server
        </CardTitle>
        <CardDescription>
          MCP clients such as Claude, Cursor and VS Code call your published workflows as tools
        </CardDescription>
      </CardHeader>
      <CardContent>
        {server.isPending ? (
          <div className="space-y-3" aria-busy="true" aria-label="Loading the MCP server">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : server.isError ? (
          <LoadErrorState
            icon={Plug}
            title={getErrorMessage(server.error, 'The MCP server could not be loaded.')}
            onRetry={() => void server.refetch()}
          />
        ) : (
          <McpServerDetails server={server.data} />
        )}
      </CardContent>
    </Card>
  );
}

function McpServerDetails({ server }: { server: McpServerInfo }) {
  const config = mcpClientConfig(server.url);
  return (
    <div className="space-y-6">
      <div className="space-y-1.5">
        <p className="text-sm font-medium">Endpoint</p>
        <div className="flex min-w-0 items-center gap-1 rounded-md border bg-muted/40 py-1 pr-1 pl-3">
          <code aria-label="MCP endpoint URL" className="min-w-0 flex-1 font-mono text-xs break-all">
            {server.url}
          </code>
          <CopyButton value={server.url} label="MCP endpoint URL" />
        </div>
        <p className="text-xs text-muted-foreground">
          Clients send an API key of this organization in the <Code>Authorization</Code> header, over
          Streamable HTTP. Connectors that sign in with OAuth (Claude, ChatGPT) need only the URL: a member
          allows them once, and they appear under Connected apps.
        </p>
      </div>

      <div className="space-y-2">
        <p className="text-sm font-medium">
          Published tools{' '}
          {server.tools.length > 0 && (
            <span className="font-normal text-muted-foreground">({server.tools.length})</span>
          )}
        </p>
        {server.tools.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-5 text-center text-sm text-muted-foreground">
            No workflow is published yet. Open an active workflow in the builder and switch on{' '}
            <span className="font-medium text-foreground">Publish on the MCP server</span> in its Settings
            tab.
          </p>
        ) : (
          <ul aria-label="Published tools" className="divide-y rounded-lg border">
            {server.tools.map((tool) => (
              <li
                key={tool.workflowId}
                aria-label={tool.toolName}
                className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1 px-3 py-2.5"
              >
                <div className="min-w-0 flex-1 space-y-0.5">
                  <p className="font-mono text-sm font-medium break-all">{tool.toolName}</p>
                  <Link
                    to={`/workflows/edit/${encodeURIComponent(tool.workflowId)}`}
                    className="text-xs text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
                  >
                    {tool.workflowName}
                  </Link>
                </div>
                {/* A paused or draft workflow's tool is not offered to clients until it is active again. */}
                <StatusBadge
                  label={tool.active ? 'Active' : 'Not active'}
                  tone={tool.active ? 'green' : 'gray'}
                />
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <p className="text-sm font-medium">Client configuration</p>
          <CopyButton value={config} label="client configuration" size="md" />
        </div>
        <pre
          aria-label="Client configuration"
          className="overflow-x-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs leading-5"
        >
          {config}
        </pre>
        <p className="text-xs text-muted-foreground">
          Claude Code (<Code>.mcp.json</Code>) and Cursor (<Code>.cursor/mcp.json</Code>) read this as it is;
          VS Code&apos;s <Code>.vscode/mcp.json</Code> names the list <Code>servers</Code> instead of{' '}
          <Code>mcpServers</Code>. Put one of your API keys in place of <Code>{MCP_API_KEY_PLACEHOLDER}</Code>
          .
        </p>
        <Button asChild variant="link" size="sm" className="h-auto px-0 has-[>svg]:px-0">
          <Link to={MCP_SERVER_DOCS_PATH}>
            Read the MCP server guide
            <ArrowUpRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </div>
  );
}
