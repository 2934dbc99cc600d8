// The Settings tab's MCP section: the saved workflow as a tool of the organization's MCP server
// (GET/PUT /api/workflows/:id/publishing; docs/product-rules.md, MCP). It is saved on its own, not
// with the workflow's Save, because publishing is its own resource. Owners and admins edit it; others
// see it read-only. Loaded lazily by settings-tab.tsx, so the builder's first download does not grow.
import { MCP_GET_RUN_TOOL, MCP_MAX_TIMEOUT_SECONDS, mcpMessages } from '@crewline/contracts';
import { Plug } from 'lucide-react';
import { useId, useState } from 'react';

import { Skeleton } from '@/components/ui/skeleton';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { useAuth } from '@/lib/session';

import { useSetPublishing, useWorkflowPublishing } from '@/features/workflows/api/publishing';
import {
  mcpBodyOf,
  mcpDraftOf,
  placeMcpError,
  type McpDraft,
  type McpField,
  type McpFieldErrors,
} from '../mcp-publishing';
import { useBuilderStore } from '../store';
import { DescribedField as Field } from './described-field';

export const MCP_READ_ONLY = 'Only owners and admins can publish workflows.';
const SAVE_FAILED = 'The publishing could not be saved. Try again.';

const HINTS: Record<McpField, string> = {
  toolName: 'What MCP clients call it: up to 64 letters, digits, _ or -.',
  description: "The client's model reads it to decide when to call the tool.",
  inputSchema: "JSON Schema of the tool's arguments: they become the run's input.",
  timeoutSeconds: `How long a call waits for the run's result (at most ${MCP_MAX_TIMEOUT_SECONDS}). A longer run answers with its id, and ${MCP_GET_RUN_TOOL} returns the result later.`,
};

export function McpPublishingSection() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const active = useBuilderStore((s) => s.existingStatus === 'active');
  const name = useBuilderStore((s) => s.settings.name);
  const description = useBuilderStore((s) => s.settings.description);
  const startData = useBuilderStore((s) => s.nodes.find((n) => n.type === 'start')?.data);
  const { organization } = useAuth();
  const manager = organization?.role === 'owner' || organization?.role === 'admin';
  const publishing = useWorkflowPublishing(workflowId);
  const save = useSetPublishing(workflowId);
  // The edits since the last save; null shows what the server holds (or the defaults).
  const [draft, setDraft] = useState<McpDraft | null>(null);
  const [errors, setErrors] = useState<McpFieldErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const switchId = useId();

  const saved = publishing.data?.mcp ?? null;
  const form =
    draft ?? mcpDraftOf(saved, { name, description, startData: startData as Record<string, unknown> });
  const editable = manager && !!workflowId;

  const edit = (patch: Partial<McpDraft>) => {
    setDraft({ ...form, ...patch });
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as McpField];
      return next;
    });
    setBanner(null);
  };

  const onSave = () => {
    const result = mcpBodyOf(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.body, {
      onSuccess: (answer) => {
        setDraft(null);
        setErrors({});
        setBanner(null);
        toast(
          answer.mcp?.enabled
            ? {
                title: 'Published on the MCP server',
                description: `MCP clients can call it as "${answer.mcp.toolName}".`,
              }
            : { title: 'Not published', description: 'MCP clients no longer see this workflow.' },
        );
      },
      onError: (error) => {
        const placed = placeMcpError(parseApiError(error));
        setErrors(placed.fields);
        setBanner(Object.keys(placed.fields).length > 0 ? null : (placed.banner ?? SAVE_FAILED));
      },
    });
  };

  return (
    <section aria-labelledby="workflow-mcp-heading" className="space-y-4 border-t pt-4">
      <div className="space-y-1">
        <h3 id="workflow-mcp-heading" className="flex items-center gap-1.5 text-sm font-semibold">
          <Plug className="size-3.5 text-muted-foreground" aria-hidden="true" />
          MCP
        </h3>
        <p className="text-xs text-muted-foreground">
          Offer this workflow as a tool on your organization&apos;s MCP server, for Claude, Cursor and other
          MCP clients.
        </p>
      </div>
      {!active && (
        <p
          role="note"
          className="rounded-md border border-amber-500/40 bg-amber-500/5 px-3 py-2 text-xs text-amber-800 dark:text-amber-300"
        >
          {mcpMessages.notActive}
        </p>
      )}
      {!manager && <p className="text-xs text-muted-foreground">{MCP_READ_ONLY}</p>}

      {workflowId && publishing.isPending ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading the MCP publishing">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : publishing.isError ? (
        <div className="space-y-2 text-xs">
          <p className="text-destructive">The publishing could not be loaded.</p>
          <Button type="button" variant="outline" size="sm" onClick={() => void publishing.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <div className="flex items-start justify-between gap-3">
            <div className="space-y-0.5">
              <Label htmlFor={switchId} className="text-sm">
                Publish on the MCP server
              </Label>
              <p className="text-xs text-muted-foreground">
                Clients with one of the organization&apos;s API keys can call it.
              </p>
            </div>
            <Switch
              id={switchId}
              checked={form.enabled}
              // A workflow that is not active can be taken off the server, not put on it.
              disabled={!editable || (!active && !form.enabled)}
              onCheckedChange={(enabled) => edit({ enabled })}
            />
          </div>

          {form.enabled && (
            <div className="space-y-4">
              <Field label="Tool name" hint={HINTS.toolName} error={errors.toolName}>
                {(props) => (
                  <Input
                    {...props}
                    value={form.toolName}
                    disabled={!editable}
                    spellCheck={false}
                    autoComplete="off"
                    className="font-mono text-xs md:text-xs"
                    onChange={(e) => edit({ toolName: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Description" hint={HINTS.description} error={errors.description}>
                {(props) => (
                  <Textarea
                    {...props}
                    value={form.description}
                    disabled={!editable}
                    rows={3}
                    onChange={(e) => edit({ description: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Input schema" hint={HINTS.inputSchema} error={errors.inputSchema}>
                {(props) => (
                  <Textarea
                    {...props}
                    value={form.inputSchema}
                    disabled={!editable}
                    spellCheck={false}
                    rows={7}
                    className="max-h-80 min-h-32 font-mono text-xs leading-relaxed md:text-xs"
                    onChange={(e) => edit({ inputSchema: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Time limit (seconds)" hint={HINTS.timeoutSeconds} error={errors.timeoutSeconds}>
                {(props) => (
                  <Input
                    {...props}
                    value={form.timeoutSeconds}
                    disabled={!editable}
                    inputMode="numeric"
                    className="w-28"
                    onChange={(e) => edit({ timeoutSeconds: e.target.value })}
                  />
                )}
              </Field>
            </div>
          )}

          {banner && (
            <p role="alert" className="text-xs wrap-anywhere text-destructive">
              {banner}
            </p>
          )}
          {editable && (
            <Button type="button" size="sm" disabled={!draft || save.isPending} onClick={onSave}>
              {save.isPending ? 'Saving...' : 'Save publishing'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
