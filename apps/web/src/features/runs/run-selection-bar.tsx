// The bar under the runs list while runs are selected: how many, 'Add to dataset' and clearing.
import { DatabaseZap, X } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';

import { AddToDatasetDialog } from './add-to-dataset-dialog';

export function RunSelectionBar({ selected, onClear }: { selected: string[]; onClear: () => void }) {
  const [open, setOpen] = useState(false);
  if (selected.length === 0 && !open) return null;
  return (
    <>
      {selected.length > 0 && (
        <div
          role="region"
          aria-label="Selected runs"
          className="sticky bottom-4 z-20 mx-auto flex w-fit max-w-full items-center gap-2 rounded-xl border bg-background/95 px-3 py-2 shadow-lg backdrop-blur sm:px-4"
        >
          <span className="text-sm font-medium whitespace-nowrap tabular-nums" data-testid="selected-count">
            {selected.length} selected
          </span>
          <span aria-hidden="true" className="hidden text-muted-foreground sm:inline">
            ·
          </span>
          <Button type="button" size="sm" onClick={() => setOpen(true)}>
            <DatabaseZap aria-hidden="true" />
            Add to dataset
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={onClear}>
            <X aria-hidden="true" />
            Clear
          </Button>
        </div>
      )}
      <AddToDatasetDialog executionIds={selected} open={open} onOpenChange={setOpen} onAdded={onClear} />
    </>
  );
}
