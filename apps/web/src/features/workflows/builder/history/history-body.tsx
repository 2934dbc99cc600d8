// The History panel (docs/product-rules.md, Workflow versions): the versions of the saved workflow,
// one version's graph and its differences from the current draft, and Restore. Loaded when the panel
// first opens (workflow-history.tsx).
import { History } from 'lucide-react';
import { useState } from 'react';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { toast } from '@/components/ui/use-toast';
import { useRestoreWorkflowVersion } from '@/features/workflows/api/restore-workflow-version';
import { getErrorMessage } from '@/lib/api';
import { useWorkflowVersions } from '@/lib/queries/workflow-versions';
import { cn } from '@/lib/utils';

import { useBuilderStore } from '../store';
import {
  HISTORY_DESCRIPTION,
  NO_VERSIONS_DESCRIPTION,
  NO_VERSIONS_TITLE,
  RESTORE_FAILED_DESCRIPTION,
  RESTORE_FAILED_TITLE,
  restoredToast,
} from './history-texts';
import { ListSkeleton } from './list-skeleton';
import { RestoreVersionDialog } from './restore-version-dialog';
import { VersionDetails } from './version-details';
import { VersionList } from './version-list';

function HistoryBody({ workflowId, onRestored }: { workflowId: string; onRestored: () => void }) {
  const versions = useWorkflowVersions(workflowId);
  const status = useBuilderStore((s) => s.existingStatus);
  const loadWorkflow = useBuilderStore((s) => s.loadWorkflow);
  const restore = useRestoreWorkflowVersion();
  const [selected, setSelected] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);

  if (versions.isPending) return <ListSkeleton />;
  if (versions.isError)
    return (
      <div className="p-4">
        <LoadErrorState
          icon={History}
          title="Versions could not be loaded"
          onRetry={() => void versions.refetch()}
        />
      </div>
    );
  const list = versions.data;
  if (list.length === 0)
    return (
      <div className="p-4">
        <EmptyState icon={History} title={NO_VERSIONS_TITLE} description={NO_VERSIONS_DESCRIPTION} />
      </div>
    );

  const summary = list.find((v) => v.version === selected) ?? null;

  const confirmRestore = async (version: number) => {
    try {
      const workflow = await restore.mutateAsync({ id: workflowId, version });
      loadWorkflow(workflow);
      setConfirming(null);
      toast(restoredToast(version, workflow.name, workflow.status));
      onRestored();
    } catch (error) {
      setConfirming(null);
      // A 400 names the rule the old definition breaks today (e.g. an agent that was deleted since).
      toast({
        variant: 'destructive',
        title: RESTORE_FAILED_TITLE,
        description: getErrorMessage(error, RESTORE_FAILED_DESCRIPTION),
      });
    }
  };

  return (
    <div className="grid min-h-0 flex-1 grid-rows-1 md:grid-cols-[17rem_minmax(0,1fr)]">
      <div
        className={cn(
          'min-h-0 overflow-y-auto p-3 md:border-r',
          // On a phone the list and one version take turns.
          summary && 'max-md:hidden',
        )}
      >
        <VersionList versions={list} selected={selected} onSelect={setSelected} />
      </div>
      <div className={cn('min-h-0 overflow-y-auto p-4 md:p-5', !summary && 'max-md:hidden')}>
        {summary ? (
          <VersionDetails
            key={summary.version}
            workflowId={workflowId}
            summary={summary}
            isNewest={summary.version === list[0].version}
            onBack={() => setSelected(null)}
            onRestore={setConfirming}
          />
        ) : (
          <EmptyState
            icon={History}
            title="Select a version"
            description="See its graph and how it differs from the current draft, and restore it."
            className="h-full min-h-64 border-0"
          />
        )}
      </div>
      <RestoreVersionDialog
        version={confirming}
        status={status}
        pending={restore.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={(version) => void confirmRestore(version)}
      />
    </div>
  );
}

export function HistorySheet({
  workflowId,
  open,
  onOpenChange,
}: {
  workflowId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="right" className="w-full gap-0 p-0 sm:max-w-5xl">
        <SheetHeader className="border-b px-5 py-4 pr-12">
          <SheetTitle>Version History</SheetTitle>
          <SheetDescription>{HISTORY_DESCRIPTION}</SheetDescription>
        </SheetHeader>
        <HistoryBody workflowId={workflowId} onRestored={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
