// An MCP server connection linked to an agent: the server's tools its connection allows, each with a
// switch for this agent (the link's `config.tools`; all of them when it names none).
import { StatusBadge } from '@/components/status-badge';
import { Switch } from '@/components/ui/switch';
import { allowedMcpTools, useMcpTools } from '@/lib/mcp-tools';
import { useTools } from '@/lib/queries/tools';

import { useSetLinkMcpTool } from '../api/agent-tools';
import { isLinkMcpToolOn } from '../tool-config';
import type { AgentToolLink } from '../types';

export function McpLinkTools({
  agentId,
  link,
  disabled,
}: {
  agentId: string;
  link: AgentToolLink;
  disabled: boolean;
}) {
  const catalogue = useTools();
  const listing = useMcpTools(link.toolId);
  const setTool = useSetLinkMcpTool(agentId);
  const connection = catalogue.data?.find((tool) => tool.id === link.toolId);
  const allowed = allowedMcpTools(listing.data?.tools ?? [], connection?.config);
  const names = allowed.map((tool) => tool.name);
  const pendingName = setTool.isPending ? setTool.variables?.name : undefined;

  let body;
  if (listing.isPending || catalogue.isPending) {
    body = <p className="text-xs text-muted-foreground">Reading the server’s tools…</p>;
  } else if (listing.isError || catalogue.isError) {
    body = <p className="text-xs text-destructive">Could not load the server’s tools.</p>;
  } else if (allowed.length === 0) {
    body = (
      <p className="text-xs text-muted-foreground">
        {listing.data?.error ?? 'Its connection allows no tools: allow some on the Tools page.'}
      </p>
    );
  } else {
    body = (
      <ul className="divide-y rounded-md border" aria-label={`${link.tool?.name ?? 'Server'} tools`}>
        {allowed.map((tool) => (
          <li key={tool.name} className="flex items-center gap-3 px-3 py-2" aria-label={tool.name}>
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="font-mono text-xs font-medium break-all">{tool.name}</span>
                {tool.readOnly ? (
                  <StatusBadge label="Read-only" tone="green" className="normal-case" />
                ) : tool.destructive ? (
                  <StatusBadge label="Destructive" tone="red" className="normal-case" />
                ) : null}
              </div>
              {tool.description && (
                <p className="line-clamp-1 text-xs text-muted-foreground" title={tool.description}>
                  {tool.description}
                </p>
              )}
            </div>
            <Switch
              checked={isLinkMcpToolOn(link.config, tool.name)}
              disabled={disabled || pendingName === tool.name}
              onCheckedChange={(on) => setTool.mutate({ link, allowed: names, name: tool.name, on })}
              aria-label={`Use ${tool.name}`}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="mt-3 space-y-1.5" aria-label={`Server tools of ${link.tool?.name ?? 'this server'}`}>
      <h4 className="text-xs font-medium text-muted-foreground">Server tools</h4>
      {body}
    </section>
  );
}
