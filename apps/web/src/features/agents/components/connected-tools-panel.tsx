import type { ToolApprovalPolicy } from '@crewline/contracts';
import { Plus, Unplug, Wrench } from 'lucide-react';
import { useId, useState } from 'react';

import { IconButton } from '@/components/icon-button';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';

import {
  linkName,
  useAgentTools,
  useDisconnectTool,
  useSetToolApproval,
  useToggleTool,
} from '../api/agent-tools';
import { approvalOptionsFor, configPreview, toolCategoryLabel } from '../tool-config';
import type { AgentToolLink } from '../types';
import { ConnectToolDialog } from './connect-tool-dialog';
import { McpLinkTools } from './mcp-link-tools';

/** When the agent's call of this tool waits for a person: Never, Writes or Always. */
function ApprovalSelect({
  link,
  onChange,
  disabled,
}: {
  link: AgentToolLink;
  onChange: (approval: ToolApprovalPolicy) => void;
  disabled: boolean;
}) {
  const id = useId();
  const options = approvalOptionsFor(link.tool?.category);
  const current = options.find((option) => option.value === link.approval);
  return (
    <div className="mt-3 flex items-center gap-2">
      <Label htmlFor={id} className="text-xs font-normal text-muted-foreground">
        Ask before running
      </Label>
      <Select
        value={link.approval}
        onValueChange={(value) => onChange(value as ToolApprovalPolicy)}
        disabled={disabled}
      >
        <SelectTrigger id={id} size="sm" className="min-w-24 px-2 text-xs">
          {/* The trigger shows the label only; the open list also says what Writes means. */}
          <SelectValue>{current?.label}</SelectValue>
        </SelectTrigger>
        <SelectContent align="start" className="max-w-72">
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              <span className="flex flex-col items-start gap-0.5">
                <span>{option.label}</span>
                {option.description && (
                  <span className="text-xs whitespace-normal text-muted-foreground">
                    {option.description}
                  </span>
                )}
              </span>
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function ToolLinkRow({
  agentId,
  link,
  onToggle,
  onApproval,
  onRemove,
  toggling,
  saving,
  removing,
}: {
  agentId: string;
  link: AgentToolLink;
  onToggle: (isEnabled: boolean) => void;
  onApproval: (approval: ToolApprovalPolicy) => void;
  onRemove: () => void;
  toggling: boolean;
  saving: boolean;
  removing: boolean;
}) {
  const name = linkName(link);
  const isMcp = link.tool?.category === 'mcp';
  // An MCP link's `tools` are its server tools' switches, not settings to read as JSON.
  const { tools: _tools, ...settings } = link.config ?? {};
  const preview = configPreview(isMcp ? settings : link.config);

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
      ) : isMcp ? null : (
        <p className="mt-3 text-xs text-muted-foreground/80">Default configuration</p>
      )}
      {isMcp && <McpLinkTools agentId={agentId} link={link} disabled={removing} />}
      <ApprovalSelect link={link} onChange={onApproval} disabled={saving || removing} />
    </li>
  );
}

/** The tools connected to an agent: enable switch, Ask before running, remove, Connect Tool. */
export function ConnectedToolsPanel({ agentId }: { agentId: string }) {
  const links = useAgentTools(agentId);
  const toggle = useToggleTool(agentId);
  const approval = useSetToolApproval(agentId);
  const disconnect = useDisconnectTool(agentId);
  const [connectOpen, setConnectOpen] = useState(false);

  const pendingToggle = toggle.isPending ? toggle.variables?.link.id : undefined;
  const pendingApproval = approval.isPending ? approval.variables?.link.id : undefined;
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
      <div className="space-y-2">
        <ul className="space-y-3" aria-label="Connected tools">
          {links.data.map((link) => (
            <ToolLinkRow
              key={link.id}
              agentId={agentId}
              link={link}
              toggling={pendingToggle === link.id}
              saving={pendingApproval === link.id}
              removing={pendingRemove === link.id}
              onToggle={(isEnabled) => toggle.mutate({ link, isEnabled })}
              onApproval={(value) => approval.mutate({ link, approval: value })}
              onRemove={() => disconnect.mutate(link)}
            />
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">
          A call that needs approval waits for a person in the Inbox; the run holds no worker meanwhile.
        </p>
      </div>
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
