// /workflows/new and /workflows/edit/:id: the visual workflow builder.
import { ArrowLeft, FileQuestion } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';

import { PageContainer } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useWorkflow } from '@/lib/queries/workflows';
import { useDocumentTitle } from '@/lib/use-document-title';

import { WorkflowBuilder } from '../builder/components/workflow-builder';
import { useBuilderStore } from '../builder/store';

function WorkflowNotFound() {
  return (
    <PageContainer className="flex flex-1 items-start justify-center pt-16 sm:pt-24">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileQuestion className="size-6" aria-hidden="true" />
          </span>
          <div className="space-y-1.5">
            <h1 className="text-xl font-semibold tracking-tight">Workflow Not Found</h1>
            <p className="text-sm text-muted-foreground">
              The workflow you&apos;re looking for doesn&apos;t exist or you don&apos;t have access to it.
            </p>
          </div>
          <Button asChild>
            <Link to="/workflows">
              <ArrowLeft aria-hidden="true" />
              Back to Workflows
            </Link>
          </Button>
        </CardContent>
      </Card>
    </PageContainer>
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
