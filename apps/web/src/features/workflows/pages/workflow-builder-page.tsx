// /workflows/new and /workflows/edit/:id: the visual workflow builder.
import { useEffect } from 'react';
import { useParams } from 'react-router';

import { NotFoundPage } from '@/components/not-found-page';
import { Spinner } from '@/components/spinner';
import { useWorkflow } from '@/lib/queries/workflows';
import { useDocumentTitle } from '@/lib/use-document-title';

import { WorkflowBuilder } from '../builder/components/workflow-builder';
import { useBuilderStore } from '../builder/store';

function WorkflowNotFound() {
  return (
    <NotFoundPage
      title="Workflow Not Found"
      item="workflow"
      backTo="/workflows"
      backLabel="Back to Workflows"
    />
  );
}

function LoadingWorkflow() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[60svh] flex-1 flex-col items-center justify-center gap-3 text-sm text-muted-foreground"
    >
      <Spinner className="size-8 text-primary" />
      Loading workflow...
    </div>
  );
}

export function WorkflowNewPage() {
  useDocumentTitle('Create New Workflow');
  const ready = useBuilderStore((s) => s.sessionKey === 'new');
  const startNew = useBuilderStore((s) => s.startNew);
  useEffect(() => {
    startNew();
    // A workflow saved in place (Ctrl+S) keeps its session on the way to its edit URL.
    return () => {
      if (useBuilderStore.getState().sessionKey === 'new') useBuilderStore.setState({ sessionKey: null });
    };
  }, [startNew]);
  if (!ready) return <LoadingWorkflow />;
  return <WorkflowBuilder title="Create New Workflow" />;
}

export function WorkflowEditPage() {
  const { id } = useParams();
  const workflow = useWorkflow(id);
  const sessionKey = `edit:${id ?? ''}`;
  const ready = useBuilderStore((s) => s.sessionKey === sessionKey);
  const loadWorkflow = useBuilderStore((s) => s.loadWorkflow);
  useDocumentTitle(workflow.data?.name ? `Edit ${workflow.data.name}` : 'Edit Workflow');

  // Load the saved workflow into the editor once per id; later refetches never reset the canvas.
  useEffect(() => {
    if (workflow.data && useBuilderStore.getState().sessionKey !== sessionKey) loadWorkflow(workflow.data);
  }, [workflow.data, sessionKey, loadWorkflow]);

  // Leaving the page forgets the session, so reopening the same workflow reads it again.
  useEffect(() => () => useBuilderStore.setState({ sessionKey: null }), [sessionKey]);

  if (!id || workflow.isError) return <WorkflowNotFound />;
  if (!ready) return <LoadingWorkflow />;
  return <WorkflowBuilder title="Edit Workflow" />;
}
