// The builder's Save as Template (a saved workflow only): the dialog in components/, started from the
// saved workflow, since the server makes the template from what is saved; it says so when the canvas
// holds unsaved changes.
import { LayoutTemplate } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { useWorkflow } from '@/lib/queries/workflows';

import { builderSnapshot, useBuilderStore } from '../store';
import { hasUnsavedChanges } from '../unsaved-changes';

// The dialog loads when first opened.
const SaveAsTemplateDialog = lazy(() =>
  import('@/components/save-as-template-dialog').then((m) => ({ default: m.SaveAsTemplateDialog })),
);

export function SaveWorkflowAsTemplate({ disabled }: { disabled: boolean }) {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const saved = useWorkflow(workflowId ?? undefined);
  const [open, setOpen] = useState(false);
  const [unsaved, setUnsaved] = useState(false);
  const [opened, setOpened] = useState(false);
  // A workflow not saved yet has nothing to make a template of.
  if (!workflowId || !saved.data) return null;
  const workflow = saved.data;

  const onOpen = () => {
    setUnsaved(hasUnsavedChanges(workflow, builderSnapshot()));
    setOpen(true);
    setOpened(true);
  };

  return (
    <>
      {/* Between lg and 2xl the header's actions keep one row: an icon, so the name field keeps its room. */}
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="outline" size="sm" onClick={onOpen} disabled={disabled}>
            <LayoutTemplate aria-hidden="true" />
            <span className="lg:max-2xl:sr-only">Save as Template</span>
          </Button>
        </TooltipTrigger>
        <TooltipContent className="2xl:hidden max-lg:hidden">Save as Template</TooltipContent>
      </Tooltip>
      {opened && (
        <Suspense fallback={null}>
          <SaveAsTemplateDialog
            kind="workflow"
            sourceId={workflowId}
            source={workflow}
            unsavedChanges={unsaved}
            open={open}
            onOpenChange={setOpen}
          />
        </Suspense>
      )}
    </>
  );
}
