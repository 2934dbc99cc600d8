import type { AgentTemplate, WorkflowTemplate } from '@crewline/contracts';
import { Bot, Building2, Copy, Cpu, Eye, Star } from 'lucide-react';
import { useId, type ReactNode } from 'react';

import { CardActionsSkeleton, CardSkeleton } from '@/components/card-skeleton';
import { Spinner } from '@/components/spinner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

import {
  agentCountLabel,
  processTypeLabel,
  TEMPLATE_RATING,
  triggerTypeLabel,
  usageLabel,
  visibleTags,
} from '../template-texts';
import { categoryVisual, PROCESS_ICONS, TRIGGER_ICONS } from './category-visuals';

/** The category's icon on its colour. */
export function CategoryIcon({ category, className }: { category: string; className?: string }) {
  const { icon: Icon, tone } = categoryVisual(category);
  return (
    <span className={cn('grid size-10 shrink-0 place-items-center rounded-lg', tone, className)}>
      <Icon className="size-5" aria-hidden="true" />
    </span>
  );
}

/** An organization's own (saved) template. */
export function OwnBadge() {
  return (
    <Badge
      variant="outline"
      className="border-primary/30 bg-primary/5 font-normal text-primary"
      data-testid="own-template-badge"
    >
      <Building2 aria-hidden="true" />
      Your organization
    </Badge>
  );
}

/** The fixed rating and how many times the template was used. */
export function RatingAndUses({ usageCount, className }: { usageCount: number; className?: string }) {
  return (
    <div className={cn('flex items-center gap-3 text-xs text-muted-foreground', className)}>
      <span className="flex items-center gap-1" aria-label={`Rated ${TEMPLATE_RATING} out of 5`}>
        <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
        <span className="font-medium text-foreground tabular-nums">{TEMPLATE_RATING.toFixed(1)}</span>
      </span>
      <span aria-hidden="true">·</span>
      <span data-testid="template-usage" className="tabular-nums">
        {usageLabel(usageCount)}
      </span>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1.5 font-medium [&>svg]:size-3.5 [&>svg]:shrink-0 [&>svg]:text-muted-foreground max-sm:[&>svg]:hidden">
        {children}
      </dd>
    </div>
  );
}

function CardHeading({
  titleId,
  name,
  category,
  isOwn,
  icon,
}: {
  titleId: string;
  name: string;
  category: string;
  isOwn: boolean;
  icon?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3 px-5 pt-5">
      {icon ?? <CategoryIcon category={category} />}
      <div className="min-w-0 flex-1">
        <h3 id={titleId} className="truncate leading-tight font-semibold" title={name}>
          {name}
        </h3>
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
          <Badge variant="secondary" className="font-normal" data-testid="template-category">
            {category}
          </Badge>
          {isOwn && <OwnBadge />}
        </div>
      </div>
    </div>
  );
}

function CardActions({
  onPreview,
  onUse,
  using,
  disabled,
}: {
  onPreview: () => void;
  onUse: () => void;
  using: boolean;
  disabled: boolean;
}) {
  return (
    <div className="grid grid-cols-2 gap-2 border-t px-5 py-3">
      <Button type="button" variant="outline" size="sm" onClick={onPreview}>
        <Eye aria-hidden="true" />
        Preview
      </Button>
      <Button type="button" size="sm" onClick={onUse} disabled={disabled} aria-busy={using}>
        {using ? <Spinner /> : <Copy aria-hidden="true" />}
        {using ? 'Creating...' : 'Use Template'}
      </Button>
    </div>
  );
}

/** A template's card, named by its heading; `children` are its body and actions. */
function TemplateCard({
  testId,
  template,
  icon,
  children,
}: {
  testId: string;
  template: { id: string; name: string; category: string; isOwn: boolean };
  icon?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      data-testid={testId}
      data-template-id={template.id}
      className="h-full gap-0 py-0 transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md"
    >
      <CardHeading
        titleId={titleId}
        name={template.name}
        category={template.category}
        isOwn={template.isOwn}
        icon={icon}
      />
      {children}
    </Card>
  );
}

function Description({ text }: { text: string | null }) {
  return text ? (
    <p className="line-clamp-3 text-sm break-words text-muted-foreground" title={text}>
      {text}
    </p>
  ) : (
    <p className="text-sm text-muted-foreground/70 italic">No description</p>
  );
}

/** One workflow template of the grid. */
export function WorkflowTemplateCard({
  template,
  onPreview,
  onUse,
  using = false,
  disabled = false,
}: {
  template: WorkflowTemplate;
  onPreview: () => void;
  onUse: () => void;
  using?: boolean;
  disabled?: boolean;
}) {
  const ProcessIcon = PROCESS_ICONS[template.processType];
  const TriggerIcon = TRIGGER_ICONS[template.triggerType];
  return (
    <TemplateCard testId="workflow-template-card" template={template}>
      <div className="flex flex-1 flex-col gap-4 px-5 py-4">
        <Description text={template.description} />
        {/* The process ('Hierarchical') takes what the agent count and the trigger leave. */}
        <dl className="mt-auto grid grid-cols-[auto_minmax(0,1fr)_auto] gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm">
          <Fact label="Agents">
            <Bot aria-hidden="true" />
            <span className="truncate" data-testid="template-agent-count">
              {agentCountLabel(template.agents.length)}
            </span>
          </Fact>
          <Fact label="Process">
            <ProcessIcon aria-hidden="true" />
            <span className="truncate" data-testid="template-process-type">
              {processTypeLabel(template.processType)}
            </span>
          </Fact>
          <Fact label="Trigger">
            <TriggerIcon aria-hidden="true" />
            <span className="truncate" data-testid="template-trigger-type">
              {triggerTypeLabel(template.triggerType)}
            </span>
          </Fact>
        </dl>
        <RatingAndUses usageCount={template.usageCount} />
      </div>
      <CardActions onPreview={onPreview} onUse={onUse} using={using} disabled={disabled || using} />
    </TemplateCard>
  );
}

/** One agent template of the grid. */
export function AgentTemplateCard({
  template,
  onPreview,
  onUse,
  using = false,
  disabled = false,
}: {
  template: AgentTemplate;
  onPreview: () => void;
  onUse: () => void;
  using?: boolean;
  disabled?: boolean;
}) {
  const tags = visibleTags(template.tags);
  return (
    <TemplateCard
      testId="agent-template-card"
      template={template}
      icon={
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-violet-500/10 text-violet-600 dark:bg-violet-500/15 dark:text-violet-300">
          <Bot className="size-5" aria-hidden="true" />
        </span>
      }
    >
      <div className="flex flex-1 flex-col gap-3 px-5 py-4">
        <p className="line-clamp-2 text-sm font-medium" title={template.role} data-testid="template-role">
          {template.role}
        </p>
        <Description text={template.description} />
        <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-1">
          <Badge
            variant="outline"
            className="max-w-full font-mono font-normal"
            title="Model"
            data-testid="template-model"
          >
            <Cpu aria-hidden="true" />
            <span className="truncate">{template.llmModel}</span>
          </Badge>
          {tags.shown.map((tag) => (
            <Badge key={tag} variant="secondary" className="max-w-32 font-normal" data-testid="template-tag">
              <span className="truncate">{tag}</span>
            </Badge>
          ))}
        </div>
        <RatingAndUses usageCount={template.usageCount} />
      </div>
      <CardActions onPreview={onPreview} onUse={onUse} using={using} disabled={disabled || using} />
    </TemplateCard>
  );
}

function SkeletonHeading() {
  return (
    <div className="flex items-start gap-3 px-5 pt-5">
      <Skeleton className="size-10 rounded-lg" />
      <div className="flex-1 space-y-2 pt-0.5">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-5 w-28" />
      </div>
    </div>
  );
}

export function WorkflowTemplateCardSkeleton() {
  return (
    <CardSkeleton testId="workflow-template-skeleton">
      <SkeletonHeading />
      <div className="space-y-4 px-5 py-4">
        <div className="space-y-2">
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-4/5" />
        </div>
        <Skeleton className="h-16 w-full rounded-lg" />
        <Skeleton className="h-3 w-24" />
      </div>
      <CardActionsSkeleton />
    </CardSkeleton>
  );
}

export function AgentTemplateCardSkeleton() {
  return (
    <CardSkeleton testId="agent-template-skeleton">
      <SkeletonHeading />
      <div className="space-y-3 px-5 py-4">
        <Skeleton className="h-3.5 w-5/6" />
        <div className="space-y-2">
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-3/5" />
        </div>
        <div className="flex gap-1.5">
          <Skeleton className="h-5 w-20" />
          <Skeleton className="h-5 w-14" />
          <Skeleton className="h-5 w-16" />
        </div>
        <Skeleton className="h-3 w-24" />
      </div>
      <CardActionsSkeleton />
    </CardSkeleton>
  );
}
