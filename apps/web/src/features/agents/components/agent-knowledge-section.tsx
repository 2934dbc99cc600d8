import { BookOpen } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { LoadErrorState } from '@/components/empty-state';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';

import { canPickMore, knowledgeBaseSummary, toggledKnowledgeBases } from '../agent-knowledge';
import { useAgentKnowledgeBases, useSetAgentKnowledgeBases } from '../api/agent-knowledge';

/**
 * The Knowledge section: the organization's knowledge bases, each with a checkbox. `picked` are the
 * ticked ids; `onChange` gets the new list (the saved agent saves it at once, the create dialog keeps
 * it until the agent exists).
 */
export function AgentKnowledgeSection({
  picked,
  onChange,
  disabled,
}: {
  picked: readonly string[];
  onChange: (knowledgeBaseIds: string[]) => void;
  disabled?: boolean;
}) {
  const bases = useKnowledgeBases();
  const headingId = useId();

  let body;
  if (bases.isLoading) {
    body = (
      <div className="space-y-2" aria-busy="true" aria-label="Loading knowledge bases">
        <Skeleton className="h-14 rounded-lg" />
        <Skeleton className="h-14 rounded-lg" />
      </div>
    );
  } else if (bases.isError || !bases.data) {
    body = (
      <LoadErrorState
        icon={BookOpen}
        title="Could not load knowledge bases"
        onRetry={() => void bases.refetch()}
        size="sm"
      />
    );
  } else if (bases.data.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
        No knowledge bases yet.{' '}
        <Link to="/knowledge" className="font-medium text-foreground underline-offset-4 hover:underline">
          Create one
        </Link>{' '}
        and add documents, then pick it here.
      </p>
    );
  } else {
    const more = canPickMore(picked);
    body = (
      <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-labelledby={headingId}>
        {bases.data.map((base) => {
          const checked = picked.includes(base.id);
          return (
            <li key={base.id}>
              <label className="flex h-full cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors hover:bg-muted/40 has-[[data-state=checked]]:border-primary/40 has-[[data-state=checked]]:bg-primary/5 has-[:disabled]:cursor-not-allowed">
                <Checkbox
                  className="mt-0.5"
                  checked={checked}
                  disabled={disabled || (!checked && !more)}
                  onCheckedChange={(on) => onChange(toggledKnowledgeBases(picked, base.id, on === true))}
                  aria-label={base.name}
                />
                <span className="min-w-0 space-y-0.5">
                  <span className="block truncate text-sm font-medium">{base.name}</span>
                  <span className="line-clamp-2 text-xs text-muted-foreground">
                    {knowledgeBaseSummary(base)}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="space-y-1">
        <h3 id={headingId} className="font-medium">
          Knowledge
        </h3>
        <p className="text-sm text-muted-foreground">
          The knowledge bases this agent searches when it answers. It is told each one&apos;s name and
          description.
        </p>
      </div>
      {body}
    </section>
  );
}

/** The Knowledge section of a saved agent: each tick or clear is saved at once. */
export function SavedAgentKnowledge({ agentId }: { agentId: string }) {
  const linked = useAgentKnowledgeBases(agentId);
  const save = useSetAgentKnowledgeBases();
  // While a save is on its way, the boxes show what was asked for.
  const picked = save.isPending
    ? save.variables.knowledgeBaseIds
    : (linked.data ?? []).map((base) => base.id);
  return (
    <AgentKnowledgeSection
      picked={picked}
      disabled={linked.isLoading || save.isPending}
      onChange={(knowledgeBaseIds) => save.mutate({ agentId, knowledgeBaseIds })}
    />
  );
}
