import { Plus, Unplug, Wrench } from 'lucide-react';
import { useState } from 'react';

import { IconButton } from '@/components/icon-button';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';

import { linkName, useAgentTools, useDisconnectTool, useToggleTool } from '../api/agent-tools';
import { configPreview, toolCategoryLabel } from '../tool-config';
import type { AgentToolLink } from '../types';
import { ConnectToolDialog } from './connect-tool-dialog';

function ToolLinkRow({
  link,
  onToggle,
  onRemove,
  toggling,
  removing,
}: {
  link: AgentToolLink;
  onToggle: (isEnabled: boolean) => void;
  onRemove: () => void;
  toggling: boolean;
  removing: boolean;
}) {
  const name = linkName(link);
  const preview = configPreview(link.config);

  return (
    <li
      data-testid="agent-tool-link"
      data-tool-id={link.toolId}
      className="rounded-lg border bg-card p-4 transition-colors data-[enabled=false]:bg-muted/30"
      data-enabled={link.isEnabled}
    >
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-sky-500/10 text-sky-600 dark:text-sky-400">
          <Wrench className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="truncate font-medium">{name}</p>
            <Badge variant="outline" className="font-normal">
              {toolCategoryLabel(link.tool?.category)}
            </Badge>
            <StatusBadge
              label={link.isEnabled ? 'Active' : 'Disabled'}
              tone={link.isEnabled ? 'green' : 'gray'}
            />
          </div>
          {link.tool?.description && (
            <p className="line-clamp-2 text-sm text-muted-foreground">{link.tool.description}</p>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <Switch
            checked={link.isEnabled}
            onCheckedChange={onToggle}
            disabled={toggling || removing}
            aria-label={`Enable ${name}`}
          />
          <IconButton
            icon={<Unplug aria-hidden="true" />}
            tooltip="Disconnect"
            label={`Remove ${name}`}
            onClick={onRemove}
            busy={removing}
            destructive
            className="ml-1"
          />
        </div>
      </div>
      {preview ? (
        <pre
          className="mt-3 max-h-36 overflow-auto rounded-md border bg-muted/50 px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap text-muted-foreground"
          aria-label={`${name} configuration`}
        >
          {preview}
        </pre>
      ) : (
        <p className="mt-3 text-xs text-muted-foreground/80">Default configuration</p>
      )}
    </li>
  );
}

/** The tools connected to an agent: enable switch, remove, Connect Tool. */
export function ConnectedToolsPanel({ agentId }: { agentId: string }) {
  const links = useAgentTools(agentId);
  const toggle = useToggleTool(agentId);
  const disconnect = useDisconnectTool(agentId);
  const [connectOpen, setConnectOpen] = useState(false);

  const pendingToggle = toggle.isPending ? toggle.variables?.link.id : undefined;
  const pendingRemove = disconnect.isPending ? disconnect.variables?.id : undefined;

  let body;
  if (links.isLoading) {
    body = (
      <div className="space-y-3" aria-busy="true" aria-label="Loading tools">
        {Array.from({ length: 2 }, (_, i) => (
          <div key={i} className="flex items-center gap-3 rounded-lg border p-4">
            <Skeleton className="size-9 rounded-lg" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-2/3" />
            </div>
            <Skeleton className="h-5 w-8 rounded-full" />
          </div>
        ))}
      </div>
    );
  } else if (links.isError || !links.data) {
    body = (
      <LoadErrorState
        icon={Wrench}
        title="Could not load connected tools"
        onRetry={() => void links.refetch()}
        size="sm"
      />
    );
  } else if (links.data.length === 0) {
    body = (
      <EmptyState
        icon={Wrench}
        title="No tools connected"
        description="Connect a tool so this agent can search the web, call APIs or work with your data."
      />
    );
  } else {
    body = (
      <ul className="space-y-3" aria-label="Connected tools">
        {links.data.map((link) => (
          <ToolLinkRow
            key={link.id}
            link={link}
            toggling={pendingToggle === link.id}
            removing={pendingRemove === link.id}
            onToggle={(isEnabled) => toggle.mutate({ link, isEnabled })}
            onRemove={() => disconnect.mutate(link)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <h3 className="font-medium">Connected tools</h3>
          <p className="text-sm text-muted-foreground">
            Tools this agent may call while it works. Switch one off to pause it without losing its
            configuration.
          </p>
        </div>
        <Button type="button" size="sm" className="shrink-0" onClick={() => setConnectOpen(true)}>
          <Plus aria-hidden="true" />
          Connect Tool
        </Button>
      </div>
      {body}
      <ConnectToolDialog
        agentId={agentId}
        links={links.data ?? []}
        open={connectOpen}
        onOpenChange={setConnectOpen}
      />
    </div>
  );
}
