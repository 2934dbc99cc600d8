import type { Tool } from '@crewline/contracts';
import { ListChecks, Settings2, Trash2 } from 'lucide-react';

import { IconButton } from '@/components/icon-button';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { toolCategoryLabel, toolConfigSummary, toolSubtitle } from '../tool-form';
import { categoryIcon, categoryTone } from './category-visuals';
import { TestToolButton } from './test-tool-button';

export function ToolCard({
  tool,
  onConfigure,
  onDelete,
  knowledgeBaseName,
  onServerTools,
}: {
  tool: Tool;
  /** An MCP server connection's tools (its Server tools dialog). */
  onServerTools?: (tool: Tool) => void;
  /** Finds one of the organization's knowledge bases' name (a vector store's); none while they load. */
  knowledgeBaseName?: (id: string) => string | undefined;
  onConfigure: (tool: Tool) => void;
  onDelete: (tool: Tool) => void;
}) {
  const Icon = categoryIcon[tool.category] ?? categoryIcon.custom;
  const summary = toolConfigSummary(tool).slice(0, 3);
  const titleId = `tool-${tool.id}-title`;

  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      className="gap-4 py-5 transition-colors hover:border-primary/30"
    >
      <CardContent className="flex flex-1 flex-col gap-4 px-5">
        <div className="flex items-start gap-3">
          <span
            className={cn(
              'grid size-10 shrink-0 place-items-center rounded-lg',
              categoryTone[tool.category] ?? categoryTone.custom,
            )}
          >
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <h3 id={titleId} className="truncate font-semibold" title={tool.name}>
              {tool.name}
            </h3>
            <p className="truncate text-sm text-muted-foreground">{toolSubtitle(tool, knowledgeBaseName)}</p>
          </div>
          <StatusBadge
            label={tool.isActive ? 'Active' : 'Inactive'}
            tone={tool.isActive ? 'green' : 'gray'}
          />
        </div>

        <p
          className={cn(
            'line-clamp-2 text-sm',
            tool.description ? 'text-foreground/80' : 'text-muted-foreground italic',
          )}
        >
          {tool.description || 'No description available'}
        </p>

        {summary.length > 0 && (
          <dl className="mt-auto grid gap-1.5 rounded-lg bg-muted/50 px-3 py-2.5 text-xs">
            {summary.map((item) => (
              <div key={item.label} className="flex items-center justify-between gap-3">
                <dt className="text-muted-foreground">{item.label}</dt>
                <dd className="min-w-0 truncate font-mono" title={item.value}>
                  {item.value}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>

      <CardFooter className="justify-between gap-2 border-t px-5 pt-4 [.border-t]:pt-4">
        <Badge variant="secondary">{toolCategoryLabel(tool.category)}</Badge>
        <div className="flex items-center gap-1">
          {tool.category === 'vector_store' && <TestToolButton tool={tool} />}
          {tool.category === 'mcp' && onServerTools && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-label={`Server tools of ${tool.name}`}
              onClick={() => onServerTools(tool)}
            >
              <ListChecks aria-hidden="true" />
              Server tools
            </Button>
          )}
          <IconButton
            icon={<Settings2 aria-hidden="true" />}
            tooltip="Configure"
            label={`Configure ${tool.name}`}
            onClick={() => onConfigure(tool)}
          />
          <IconButton
            icon={<Trash2 aria-hidden="true" />}
            tooltip="Delete"
            label={`Delete ${tool.name}`}
            onClick={() => onDelete(tool)}
            destructive
          />
        </div>
      </CardFooter>
    </Card>
  );
}
