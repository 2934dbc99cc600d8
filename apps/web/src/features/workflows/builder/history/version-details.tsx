// One version: when, who and why, its graph (read-only), what differs from the current draft, and
// Restore.
import type { WorkflowVersion, WorkflowVersionSummary } from '@crewline/contracts';
import { ArrowLeft, History, RotateCcw } from 'lucide-react';
import { useMemo } from 'react';

import { LoadErrorState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { WorkflowGraphView } from '@/components/workflow-graph/workflow-graph-view';
import { formatDateTime } from '@/lib/format';
import { useAgents } from '@/lib/queries/agents';
import { useWorkflowVersion } from '@/lib/queries/workflow-versions';

import { useBuilderStore } from '../store';
import { versionAuthor, versionTitle } from './history-texts';
import { diffVersion, isSameAsDraft } from './version-diff';
import { VersionDiffView } from './version-diff-view';
import { CurrentBadge } from './version-list';

function DetailsSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading version">
      <Skeleton className="h-6 w-40" />
      <Skeleton className="h-4 w-64" />
      <Skeleton className="h-56 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

function LoadedVersion({
  version,
  isNewest,
  onRestore,
}: {
  version: WorkflowVersion;
  isNewest: boolean;
  onRestore: (version: number) => void;
}) {
  const agents = useAgents().data;
  const settings = useBuilderStore((s) => s.settings);
  const nodes = useBuilderStore((s) => s.nodes);
  const edges = useBuilderStore((s) => s.edges);
  const diff = useMemo(() => {
    const names = new Map((agents ?? []).map((a) => [a.id, a.name]));
    return diffVersion(version, { settings, nodes, edges }, { agentName: (id) => names.get(id) });
  }, [version, settings, nodes, edges, agents]);
  const same = isSameAsDraft(diff);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="flex items-center gap-2 text-base font-semibold">
            {versionTitle(version.version)}
            {isNewest && <CurrentBadge />}
          </h3>
          <p className="text-sm text-muted-foreground">
            <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
            {' · '}
            {versionAuthor(version)}
          </p>
        </div>
        <Button
          size="sm"
          variant="outline"
          onClick={() => onRestore(version.version)}
          disabled={same}
          title={same ? 'The current draft is already this version' : undefined}
        >
          <RotateCcw aria-hidden="true" />
          Restore
        </Button>
      </div>
      {version.note && (
        <blockquote className="rounded-md border-l-4 border-primary/40 bg-muted/50 px-3 py-2 text-sm break-words whitespace-pre-wrap">
          {version.note}
        </blockquote>
      )}
      <section aria-label={`Graph of ${versionTitle(version.version).toLowerCase()}`} className="space-y-2">
        <h3 className="text-sm font-semibold">Graph</h3>
        <WorkflowGraphView
          nodes={version.nodes}
          edges={version.edges}
          agents={agents}
          className="h-56 bg-background sm:h-72"
        />
      </section>
      <VersionDiffView diff={diff} version={version.version} />
    </div>
  );
}

export function VersionDetails({
  workflowId,
  summary,
  isNewest,
  onBack,
  onRestore,
}: {
  workflowId: string;
  summary: WorkflowVersionSummary;
  isNewest: boolean;
  onBack: () => void;
  onRestore: (version: number) => void;
}) {
  const query = useWorkflowVersion(workflowId, summary.version);
  return (
    <div className="space-y-4">
      {/* On a phone the list and one version take turns; this leads back. */}
      <Button variant="ghost" size="sm" className="-ml-2 md:hidden" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        All versions
      </Button>
      {query.isPending ? (
        <DetailsSkeleton />
      ) : query.isError ? (
        <LoadErrorState
          icon={History}
          title={`${versionTitle(summary.version)} could not be loaded`}
          onRetry={() => void query.refetch()}
          size="sm"
        />
      ) : (
        <LoadedVersion version={query.data} isNewest={isNewest} onRestore={onRestore} />
      )}
    </div>
  );
}
