import { linkConfigIssues } from '@crewline/contracts';
import { Info } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { useTools } from '@/lib/queries/tools';

import { useConnectTool } from '../api/agent-tools';
import { availableTools, parseToolConfig, toolCategoryLabel, type ToolConfig } from '../tool-config';
import type { AgentToolLink } from '../types';

/**
 * Connect Tool: a tool select, a JSON configuration (accepted only when it
 * parses; otherwise the last valid value is kept) and Connect, disabled until a tool is chosen.
 * No <form> here: the dialog sits inside the agent form in the React tree, and a submit would
 * bubble up to it.
 */
export function ConnectToolDialog({
  agentId,
  links,
  open,
  onOpenChange,
}: {
  agentId: string;
  links: readonly AgentToolLink[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const catalogue = useTools({ enabled: open });
  const connect = useConnectTool(agentId);
  const [toolId, setToolId] = useState('');
  const [configText, setConfigText] = useState('{}');
  const [config, setConfig] = useState<ToolConfig>({});
  const [invalid, setInvalid] = useState(false);
  const toolSelectId = useId();
  const configId = useId();
  const hintId = useId();

  const choices = useMemo(() => availableTools(catalogue.data ?? [], links), [catalogue.data, links]);
  const chosen = choices.find((tool) => tool.id === toolId) ?? null;
  // The server refuses keys and addresses here (they belong to the tool): said before sending.
  const refused = linkConfigIssues(config)[0]?.message;

  const reset = () => {
    setToolId('');
    setConfigText('{}');
    setConfig({});
    setInvalid(false);
  };

  const changeOpen = (next: boolean) => {
    if (connect.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const changeConfig = (text: string) => {
    setConfigText(text);
    const parsed = parseToolConfig(text);
    if (parsed.ok) setConfig(parsed.value);
    setInvalid(!parsed.ok);
  };

  const submit = () => {
    if (!chosen || refused) return;
    connect.mutate(
      { tool: chosen, config },
      {
        onSuccess: () => {
          reset();
          onOpenChange(false);
        },
      },
    );
  };

  let placeholder = 'Select a tool';
  if (catalogue.isLoading) placeholder = 'Loading tools...';
  else if (catalogue.isError) placeholder = 'Tools unavailable';
  else if (choices.length === 0) placeholder = 'No tools available';

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Connect Tool</DialogTitle>
          <DialogDescription>
            Give this agent access to one of your organization&apos;s tools.
          </DialogDescription>
        </DialogHeader>

        <div className="grid gap-5">
          <div className="grid gap-2">
            <Label htmlFor={toolSelectId}>Tool</Label>
            <Select
              value={toolId}
              onValueChange={setToolId}
              disabled={catalogue.isLoading || catalogue.isError || choices.length === 0 || connect.isPending}
            >
              <SelectTrigger id={toolSelectId} className="w-full">
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
              <SelectContent>
                {choices.map((tool) => (
                  <SelectItem key={tool.id} value={tool.id}>
                    <span className="truncate">{tool.name}</span>
                    <span className="text-xs text-muted-foreground">
                      {toolCategoryLabel(tool.category)}
                      {tool.isActive === false ? ' · inactive' : ''}
                    </span>
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {catalogue.isError && (
              <p className="text-xs text-destructive">
                Could not load your tools.{' '}
                <button
                  type="button"
                  className="font-medium underline underline-offset-4"
                  onClick={() => void catalogue.refetch()}
                >
                  Try again
                </button>
              </p>
            )}
            {!catalogue.isLoading && !catalogue.isError && choices.length === 0 && (
              <p className="text-xs text-muted-foreground">
                {(catalogue.data?.length ?? 0) > 0
                  ? 'Every tool of your organization is already connected to this agent.'
                  : 'Your organization has no tools yet.'}{' '}
                <Link to="/tools" className="font-medium text-primary underline-offset-4 hover:underline">
                  Manage tools
                </Link>
              </p>
            )}
            {chosen?.description && <p className="text-xs text-muted-foreground">{chosen.description}</p>}
            {chosen?.category === 'mcp' && (
              <p className="text-xs text-muted-foreground">
                The agent gets every tool this server connection allows: switch single ones off in its
                Connected tools once connected.
              </p>
            )}
          </div>

          <div className="grid gap-2">
            <Label htmlFor={configId}>Configuration (JSON)</Label>
            <Textarea
              id={configId}
              value={configText}
              onChange={(event) => changeConfig(event.target.value)}
              rows={6}
              spellCheck={false}
              aria-describedby={hintId}
              disabled={connect.isPending}
              className="min-h-32 font-mono text-[13px]"
              placeholder='{ "maxResults": 5 }'
            />
            <p
              id={hintId}
              aria-live="polite"
              className={
                invalid || refused
                  ? 'flex items-start gap-1.5 text-xs text-amber-700 dark:text-amber-400'
                  : 'flex items-start gap-1.5 text-xs text-muted-foreground'
              }
            >
              {/* On the first line when the text wraps (a refused field's message does). */}
              <Info className="mt-px size-3.5 shrink-0" aria-hidden="true" />
              {invalid
                ? 'Not valid JSON yet: the last valid configuration will be used.'
                : (refused ??
                  'Optional settings for this agent, as a JSON object. Keys and addresses belong to the tool.')}
            </p>
          </div>
        </div>

        <DialogFooter>
          <Button
            type="button"
            variant="outline"
            onClick={() => changeOpen(false)}
            disabled={connect.isPending}
          >
            Cancel
          </Button>
          <Button
            type="button"
            onClick={submit}
            disabled={!chosen || !!refused || connect.isPending}
            aria-busy={connect.isPending}
          >
            {connect.isPending && <Spinner />}
            {connect.isPending ? 'Connecting...' : 'Connect'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
