// The builder's History button and panel (docs/product-rules.md, Workflow versions): the versions of
// the saved workflow, one version's graph and its differences from the current draft, and Restore,
// after which the builder shows the restored workflow. The panel (history-body.tsx) loads when it
// first opens.
import { History } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import { Button } from '@/components/ui/button';

import { FoldingText, FoldingTooltip } from '../components/folding-label';
import { useBuilderStore } from '../store';

const HistorySheet = lazy(() => import('./history-body').then((m) => ({ default: m.HistorySheet })));

export function WorkflowHistory() {
  const workflowId = useBuilderStore((s) => s.workflowId);
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  // A workflow not saved yet has no history.
  if (!workflowId) return null;
  return (
    <>
      <FoldingTooltip label="History">
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            setOpen(true);
            setOpened(true);
          }}
        >
          <History aria-hidden="true" />
          <FoldingText>History</FoldingText>
        </Button>
      </FoldingTooltip>
      {opened && (
        <Suspense fallback={null}>
          <HistorySheet workflowId={workflowId} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
