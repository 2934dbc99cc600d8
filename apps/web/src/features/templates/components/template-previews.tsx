// The previews opened before using a template: a workflow template's description, process, trigger,
// agents and read-only graph; an agent template's role, goal, backstory, system prompt and model.
// Use Template works from here too, and a plan limit shows its reason inside the dialog.
import type { AgentTemplate, WorkflowTemplate } from '@crewline/contracts';
import { Bot, Copy, Cpu } from 'lucide-react';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';

import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { Spinner } from '@/components/spinner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { PlanLimitInfo } from '@/lib/billing';
import { cn } from '@/lib/utils';

import { templateGraph } from '../template-graph';
import { agentCountLabel, processTypeLabel, providerLabel, triggerTypeLabel } from '../template-texts';
import { PROCESS_ICONS, TRIGGER_ICONS } from './category-visuals';
import { CategoryIcon, OwnBadge, RatingAndUses } from './template-cards';

// React Flow is loaded only when a preview opens: the marketplace's grid does not need it.
const WorkflowGraphView = lazy(() =>
  import('@/components/workflow-graph/workflow-graph-view').then((module) => ({
    default: module.WorkflowGraphView,
  })),
);

const GRAPH_BOX = 'h-52 sm:h-72';

function GraphLoading() {
  return (
    <div className={cn('grid place-items-center rounded-md border', GRAPH_BOX)} aria-busy="true">
      <Spinner className="size-5 text-muted-foreground" label="Loading the workflow graph" />
    </div>
  );
}

function SectionTitle({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <h3 id={id} className="text-sm font-semibold">
      {children}
    </h3>
  );
}

function PreviewHeading({
  name,
  category,
  isOwn,
  description,
  icon,
}: {
  name: string;
  category: string;
  isOwn: boolean;
  description: string | null;
  icon: ReactNode;
}) {
  return (
    <DialogHeader className="gap-3 pr-8 text-left">
      <div className="flex items-center gap-3">
        {icon}
        <div className="min-w-0 space-y-1.5">
          <DialogTitle className="leading-tight break-words">{name}</DialogTitle>
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge variant="secondary" className="font-normal">
              {category}
            </Badge>
            {isOwn && <OwnBadge />}
          </div>
        </div>
      </div>
      <DialogDescription className={cn('break-words', !description && 'italic')}>
        {description || 'No description'}
      </DialogDescription>
    </DialogHeader>
  );
}

/** Stays in view at the bottom of a long preview, with the reason of a plan limit above the buttons. */
function PreviewFooter({
  onClose,
  onUse,
  using,
  disabled,
  planLimit,
}: {
  onClose: () => void;
  onUse: () => void;
  using: boolean;
  disabled: boolean;
  planLimit: PlanLimitInfo | null;
}) {
  return (
    <div className="sticky bottom-0 z-10 -mx-6 mt-auto -mb-6 space-y-3 rounded-b-lg border-t bg-background px-6 py-4">
      <PlanLimitAlert info={planLimit} />
      <DialogFooter className="flex-row *:flex-1 sm:*:flex-none">
        <Button type="button" variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button type="button" onClick={onUse} disabled={disabled || using} aria-busy={using}>
          {using ? <Spinner /> : <Copy aria-hidden="true" />}
          {using ? 'Creating...' : 'Use Template'}
        </Button>
      </DialogFooter>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1.5 text-sm font-medium [&>svg]:size-4 [&>svg]:shrink-0 [&>svg]:text-muted-foreground">
        {children}
      </dd>
    </div>
  );
}

interface PreviewProps<T> {
  /** Kept while the dialog fades out after closing. */
  template: T | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUse: (template: T) => void;
  using: boolean;
  /** Another Use Template is on its way. */
  disabled?: boolean;
  planLimit: PlanLimitInfo | null;
}

export function WorkflowTemplatePreview({
  template,
  open,
  onOpenChange,
  onUse,
  using,
  disabled = false,
  planLimit,
}: PreviewProps<WorkflowTemplate>) {
  const graph = useMemo(() => (template ? templateGraph(template) : null), [template]);
  if (!template || !graph) return null;
  const ProcessIcon = PROCESS_ICONS[template.processType];
  const TriggerIcon = TRIGGER_ICONS[template.triggerType];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-5 sm:max-w-4xl" data-testid="workflow-template-preview">
        <PreviewHeading
          name={template.name}
          category={template.category}
          isOwn={template.isOwn}
          description={template.description}
          icon={<CategoryIcon category={template.category} />}
        />

        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 sm:grid-cols-4">
          <Fact label="Process">
            <ProcessIcon aria-hidden="true" />
            <span data-testid="preview-process-type">{processTypeLabel(template.processType)}</span>
          </Fact>
          <Fact label="Trigger">
            <TriggerIcon aria-hidden="true" />
            <span data-testid="preview-trigger-type">{triggerTypeLabel(template.triggerType)}</span>
          </Fact>
          <Fact label="Agents">
            <Bot aria-hidden="true" />
            {agentCountLabel(template.agents.length)}
          </Fact>
          <Fact label="Rating">
            <RatingAndUses usageCount={template.usageCount} />
          </Fact>
        </dl>

        <section aria-labelledby="template-preview-graph" className="space-y-2">
          <SectionTitle id="template-preview-graph">Workflow</SectionTitle>
          <Suspense fallback={<GraphLoading />}>
            <WorkflowGraphView
              nodes={graph.nodes}
              edges={template.edges}
              agents={graph.agents}
              className={GRAPH_BOX}
            />
          </Suspense>
        </section>

        <section aria-labelledby="template-preview-agents" className="space-y-2">
          <SectionTitle id="template-preview-agents">Agents in this workflow</SectionTitle>
          {template.agents.length === 0 ? (
            <p className="text-sm text-muted-foreground italic">This template has no agents.</p>
          ) : (
            <ol className="grid grid-cols-1 gap-3 md:grid-cols-2" aria-label="Template agents">
              {template.agents.map((agent, index) => (
                <li
                  key={agent.key}
                  data-testid="template-preview-agent"
                  className="flex min-w-0 gap-3 rounded-lg border bg-card p-3"
                >
                  <span className="grid size-7 shrink-0 place-items-center rounded-full bg-violet-500/10 text-xs font-semibold text-violet-600 tabular-nums dark:bg-violet-500/15 dark:text-violet-300">
                    {index + 1}
                  </span>
                  <div className="min-w-0 flex-1 space-y-1">
                    <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                      <p className="font-medium break-words" data-testid="template-preview-agent-name">
                        {agent.name}
                      </p>
                      <Badge variant="outline" className="max-w-full font-mono font-normal" title="Model">
                        <Cpu aria-hidden="true" />
                        <span className="truncate">{agent.llmModel}</span>
                      </Badge>
                    </div>
                    <p className="text-sm break-words text-foreground/80">{agent.role}</p>
                    <p className="text-xs break-words text-muted-foreground">
                      <span className="font-medium text-foreground/70">Goal: </span>
                      {agent.goal}
                    </p>
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>

        <PreviewFooter
          onClose={() => onOpenChange(false)}
          onUse={() => onUse(template)}
          using={using}
          disabled={disabled}
          planLimit={planLimit}
        />
      </DialogContent>
    </Dialog>
  );
}

function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('space-y-1', className)}>
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

export function AgentTemplatePreview({
  template,
  open,
  onOpenChange,
  onUse,
  using,
  disabled = false,
  planLimit,
}: PreviewProps<AgentTemplate>) {
  if (!template) return null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-5 sm:max-w-xl" data-testid="agent-template-preview">
        <PreviewHeading
          name={template.name}
          category={template.category}
          isOwn={template.isOwn}
          description={template.description}
          icon={
            <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-violet-500/10 text-violet-600 dark:bg-violet-500/15 dark:text-violet-300">
              <Bot className="size-5" aria-hidden="true" />
            </span>
          }
        />
        <dl className="space-y-4">
          <Field label="Role">{template.role}</Field>
          <Field label="Goal">{template.goal}</Field>
          <Field label="Backstory">
            {template.backstory || <span className="text-muted-foreground italic">None</span>}
          </Field>
          <Field label="System Prompt">
            {template.systemPrompt ? (
              <pre className="max-h-56 overflow-y-auto rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap">
                {template.systemPrompt}
              </pre>
            ) : (
              <span className="text-muted-foreground italic">None</span>
            )}
          </Field>
          <Field label="Model">
            <span className="flex flex-wrap items-center gap-2">
              <Badge variant="outline" className="font-mono font-normal" data-testid="preview-model">
                <Cpu aria-hidden="true" />
                {template.llmModel}
              </Badge>
              <span className="text-xs text-muted-foreground">
                {providerLabel(template.llmProvider)} · temperature {template.temperature}% · up to{' '}
                {template.maxTokens.toLocaleString('en-US')} tokens
              </span>
            </span>
          </Field>
        </dl>
        <RatingAndUses usageCount={template.usageCount} />
        <PreviewFooter
          onClose={() => onOpenChange(false)}
          onUse={() => onUse(template)}
          using={using}
          disabled={disabled}
          planLimit={planLimit}
        />
      </DialogContent>
    </Dialog>
  );
}
